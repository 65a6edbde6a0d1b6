import "server-only";
import { recordAudit } from "@/lib/console/audit";
import type { SessionUser } from "@/lib/console/auth/session";
import { EXPORT_TOTAL_HEADER, type InvoiceExportOptions, invoiceExportOptionsSchema } from "@/lib/contract";
import { type InvoiceViewQuery, invoiceViewQuerySchema } from "@/lib/contract/invoice-view";
import { displayTimeZone } from "@/lib/contract/time-zone";
import { getDatabase } from "@/lib/platform/db";
import { env } from "@/lib/platform/env";
import { parseQuery } from "@/lib/platform/http-body";
import { csvEncoder, exportStream, jsonEncoder, planExport } from "./export";
import { createExportSlots, releasedWhenDone } from "./export-slots";
import { listView } from "./list-source";

export const EXPORT_ACTION = "invoices.export";

const CONTENT_TYPES = { csv: "text/csv; charset=utf-8", json: "application/json; charset=utf-8" } as const;

/**
 * GET /api/invoices/export: the list's own filter and sort (bad values → 422, nothing sent upstream), the
 * first page fetched before answering (a failure there is an ordinary problem, not a file), the audit entry
 * of who exported which filter, then the file streamed page by page.
 */
export async function exportInvoicesResponse(request: Request, user: SessionUser): Promise<Response> {
  const options = parseQuery(request, invoiceExportOptionsSchema);
  const view = parseQuery(request, invoiceViewQuerySchema);
  const release = exportSlots().take(user.id);
  try {
    return await startExport(user, options, view, release);
  } catch (error) {
    release();
    throw error;
  }
}

async function startExport(
  user: SessionUser,
  options: InvoiceExportOptions,
  view: InvoiceViewQuery,
  release: () => void,
): Promise<Response> {
  // The file is named by days of the person's zone, the zone their view's days were counted in (lib/contract/time-zone.ts).
  const { timeZone } = displayTimeZone(env().timeZone, user.timeZone);
  const plan = await planExport(listView, view, options, timeZone);
  const { page: _page, page_size: _size, ...filter } = plan.query;
  await recordAudit(await getDatabase(), {
    actor: user,
    action: EXPORT_ACTION,
    target: "invoices",
    detail: { format: options.format, ...(options.bom ? { bom: true } : {}), filter, total_records: plan.total, file: plan.fileName },
  });
  const encoder = options.format === "csv" ? csvEncoder({ bom: options.bom }) : jsonEncoder();
  return new Response(releasedWhenDone(exportStream(plan, encoder), release), {
    headers: {
      "content-type": CONTENT_TYPES[options.format],
      "content-disposition": `attachment; filename="${plan.fileName}"`,
      "cache-control": "private, no-store",
      [EXPORT_TOTAL_HEADER]: String(plan.total),
      // Proxies that buffer (nginx) would hold the stream back; the download should start at once.
      "x-accel-buffering": "no",
    },
  });
}

const holder = globalThis as typeof globalThis & { __invoiceConsoleExportSlots?: ReturnType<typeof createExportSlots> };
/** One set of slots per process (route modules may be loaded more than once), shared by every export. */
export function exportSlots() {
  holder.__invoiceConsoleExportSlots ??= createExportSlots(env().exports);
  return holder.__invoiceConsoleExportSlots;
}
