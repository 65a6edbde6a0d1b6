import { z } from "zod";
import { dayOf } from "@/lib/contract/time-zone";
import { FIRST_API_INSTANT, LAST_API_INSTANT } from "./list-query";
import type { InvoiceListQuery } from "./list-query-schema";

/*
 * GET /api/invoices/export (the console's own endpoint): the list's own filter and sort parameters
 * plus these. The walk, the encoders and the stream are in lib/console/invoices/export.ts.
 */

export const EXPORT_FORMATS = ["csv", "json"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const invoiceExportOptionsSchema = z.object({
  format: z.enum(EXPORT_FORMATS, { error: "must be csv or json" }),
  /** CSV only: start the file with a UTF-8 byte order mark, which Excel needs to read UTF-8. */
  bom: z
    .enum(["0", "1", "true", "false"], { error: "must be 1 or 0" })
    .default("0")
    .transform((value) => value === "1" || value === "true"),
});
export type InvoiceExportOptions = z.output<typeof invoiceExportOptionsSchema>;

/** The provider's page size the export walks with (the spec's maximum). */
export const EXPORT_PAGE_SIZE = 100;

/** Response header: how many invoices the export holds (the list's total_records under the export's bound). */
export const EXPORT_TOTAL_HEADER = "x-export-total";

/**
 * The start of the last record of a file whose walk failed midway: in CSV the first cell of a final row, in
 * JSON the `error` member beside `"complete": false`. A short file is never silent.
 */
export const EXPORT_INCOMPLETE = "EXPORT INCOMPLETE";

/**
 * What the file holds, in its name: `invoices_cancelled_btc_2026-01-01_2026-03-31.csv`, a search as
 * `invoices_all_matching_ord-2611_until_2026-03-31.csv`. Dates are UTC days,
 * both included: the query's created_after is exclusive (one millisecond before midnight) and created_before
 * is exclusive (the midnight after the last day).
 */
export function exportFileName(
  query: Pick<InvoiceListQuery, "currency" | "created_after" | "created_before"> & { status?: string | readonly string[]; q?: string },
  format: ExportFormat,
  timeZone: string,
  /** A CSV with the byte order mark Excel needs: named apart, so that it does not overwrite the plain one. */
  forExcel = false,
): string {
  // Days of `timeZone`, the zone the view's days were counted in (lib/contract/time-zone.ts), within the contract's
  // years (0001–9999): one millisecond past 9999-12-31T23:59:59.999Z is no day to name.
  const day = (instant: number) => {
    const d = dayOf(Math.min(Math.max(instant, FIRST_API_INSTANT), LAST_API_INSTANT), timeZone);
    return d.length > 10 ? "9999-12-31" : d < "0001-01-01" ? "0001-01-01" : d;
  };
  const statuses = typeof query.status === "string" ? [query.status] : (query.status ?? []);
  const parts = ["invoices", statuses.length ? statuses.join("-") : "all"];
  if (query.currency) parts.push(query.currency.toLowerCase().replace(/[^a-z0-9]+/g, "-"));
  // A search, as ASCII letters and digits (a header's file name): a file of one order's invoices says which.
  const searched = query.q
    ?.toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, 40);
  if (searched) parts.push("matching", searched);
  const from = query.created_after ? day(Date.parse(query.created_after) + 1) : null;
  const to = query.created_before ? day(Date.parse(query.created_before) - 1) : null;
  if (from && to) parts.push(from, to);
  else if (from) parts.push("from", from);
  else if (to) parts.push("until", to);
  if (forExcel && format === "csv") parts.push("excel");
  return `${parts.join("_")}.${format}`;
}
