import "server-only";
import Papa from "papaparse";
import { z } from "zod";
import { recordAudit } from "@/lib/console/audit";
import type { SessionUser } from "@/lib/console/auth/session";
import { exportSlots } from "@/lib/console/invoices/export-response";
import { releasedWhenDone } from "@/lib/console/invoices/export-slots";
import { type ActivityEntry, type ActivityQuery, activityKindLabel, activityQuerySchema } from "@/lib/contract/activity";
import { activityOutcome, activityReasons } from "@/lib/contract/activity-words";
import { csvNeedsQuotes, csvTextCell } from "@/lib/contract/csv-formula";
import { EXPORT_FORMATS, EXPORT_TOTAL_HEADER } from "@/lib/contract/export";
import { todayIn } from "@/lib/contract/time-zone";
import { getDatabase } from "@/lib/platform/db";
import { env } from "@/lib/platform/env";
import { parseQuery } from "@/lib/platform/http-body";
import { activityCount, walkActivity } from "./query";

// `outcome` came last: a file read by position keeps its earlier columns where they were.
export const ACTIVITY_CSV_COLUMNS = [
  "seq",
  "at",
  "actor_email",
  "action",
  "what",
  "target",
  "reason",
  "request_id",
  "detail",
  "outcome",
] as const;

const optionsSchema = z.object({ format: z.enum(EXPORT_FORMATS, { error: "must be csv or json" }) });

/**
 * GET /api/activity/export: exactly the rows of the page's view (its own parameters, every page of it), newest
 * first, streamed a thousand at a time, under the same per-person and overall caps as the invoice export. The
 * export is itself an entry, written before the file starts: the view, how many rows it holds, and the last entry
 * number it reaches (the file's rows are the view's entries up to it, so its count matches).
 */
export async function exportActivityResponse(request: Request, user: SessionUser): Promise<Response> {
  const { format } = parseQuery(request, optionsSchema);
  const query = parseQuery(request, activityQuerySchema);
  const release = exportSlots().take(user.id);
  try {
    const db = await getDatabase();
    const timeZone = env().timeZone;
    // The file is the log as counted: its own entry, and any written while it streams, are not in it.
    const { total, head: through } = await activityCount(db, query, timeZone);
    const { page: _page, page_size: _size, ...filter } = query;
    await recordAudit(db, {
      actor: user,
      action: "activity.export",
      target: "activity",
      detail: { format, filter, total_records: total, through_seq: through },
    });
    const fileName = `activity_${todayIn(timeZone)}.${format}`;
    const stream = activityStream(walkActivity(db, query, timeZone, through), format === "csv" ? csvEncoder : jsonEncoder(filter, total));
    return new Response(releasedWhenDone(stream, release), {
      headers: {
        "content-type": format === "csv" ? "text/csv; charset=utf-8" : "application/json; charset=utf-8",
        "content-disposition": `attachment; filename="${fileName}"`,
        "cache-control": "private, no-store",
        [EXPORT_TOTAL_HEADER]: String(total),
        "x-accel-buffering": "no",
      },
    });
  } catch (error) {
    release();
    throw error;
  }
}

type Encoder = { start: string; rows: (entries: ActivityEntry[], written: number) => string; end: (written: number) => string };

/** One entry as CSV cells: every text cell with its unsafe characters shown by code and neutralised against formulas. */
export function activityCsvCells(entry: ActivityEntry): (string | number)[] {
  // The entry's own reason: a decision's, not the request's it decided (that one is in the detail).
  const reason = activityReasons(entry)[0]?.text ?? "";
  const text = [
    entry.at,
    entry.actor_email,
    entry.action,
    activityKindLabel(entry.action),
    entry.target,
    reason,
    entry.request_id ?? "",
    JSON.stringify(entry.detail),
    // What the table's badge says: "Changed an invoice's status" may have been refused.
    activityOutcome(entry)?.label ?? "",
  ];
  return [entry.seq, ...text.map(csvTextCell)];
}

const csvLines = (rows: (string | number)[][]) =>
  `${Papa.unparse(rows, { header: false, newline: "\r\n", quotes: (value: unknown) => typeof value === "string" && csvNeedsQuotes(value) })}\r\n`;

const csvEncoder: Encoder = {
  start: csvLines([[...ACTIVITY_CSV_COLUMNS]]),
  rows: (entries) => csvLines(entries.map(activityCsvCells)),
  end: () => "",
};

function jsonEncoder(filter: Omit<ActivityQuery, "page" | "page_size">, total: number): Encoder {
  return {
    start: `{"export":${JSON.stringify({ started_at: new Date().toISOString(), filter, total_records: total })},"items":[\n`,
    rows: (entries, written) => entries.map((e, i) => `${written + i > 0 ? "," : ""}${JSON.stringify(e)}\n`).join(""),
    end: (written) => `],"complete":true,"row_count":${written}}\n`,
  };
}

/** The file, a batch of entries each time the reader asks for more; the walk stops when the reader goes away. */
function activityStream(batches: AsyncGenerator<ActivityEntry[]>, encoder: Encoder): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder();
  let written = 0;
  let started = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!started) {
          started = true;
          controller.enqueue(bytes.encode(encoder.start));
          return;
        }
        const next = await batches.next();
        if (!next.done) {
          controller.enqueue(bytes.encode(encoder.rows(next.value, written)));
          written += next.value.length;
          return;
        }
        const end = encoder.end(written);
        if (end) controller.enqueue(bytes.encode(end));
        controller.close();
      },
      async cancel() {
        await batches.return(undefined);
      },
    },
    { highWaterMark: 0 },
  );
}
