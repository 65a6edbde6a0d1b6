import { z } from "zod";
import { fillProgressSchema } from "./fill-progress";
import { decimalAmount, invoiceListSchema } from "./invoice";
import { commaList, PAGE_SIZE_MAX, VIEW_QUERY_MAX } from "./list-query";
import { checkCreatedRange, type InvoiceListQuery, invoiceListQueryShape } from "./list-query-schema";
import { ALL_INVOICE_STATUSES, type AnyInvoiceStatus } from "./status";

/*
 * A view of the invoice list as the console offers it: the provider's list query (spec §4.1) plus
 * what no provider answers — several statuses at once (`status=pending,paid_partial`) and a text query (`q`,
 * an order id, words of the order name, or an invoice id). A view the provider can answer goes to the provider;
 * any other is answered from the console's mirror of the provider's invoices (ARCHITECTURE.md §4), which says
 * how fresh it is.
 */

const isStatus = (value: string): value is AnyInvoiceStatus => (ALL_INVOICE_STATUSES as readonly string[]).includes(value);

/** `pending,paid_partial` → ["pending", "paid_partial"]: each a known status, each once, in the order given. */
export const statusListSchema = z
  .string()
  .transform(commaList)
  .check((ctx) => {
    const unknown = ctx.value.filter((s) => !isStatus(s));
    if (unknown.length) {
      ctx.issues.push({
        code: "custom",
        input: ctx.value,
        message: `must be one or more of ${ALL_INVOICE_STATUSES.join(", ")}, separated by commas (not ${unknown.map((s) => JSON.stringify(s)).join(", ")})`,
      });
    }
  })
  .transform((list) => (list.length ? (list as AnyInvoiceStatus[]) : undefined));

/** A view's text as searched: control characters are never part of an id or a name (and PostgreSQL's text cannot hold a NUL). */
export function viewText(value: string): string {
  return value.replace(/[\u0000-\u001f\u007f]+/g, " ").trim();
}

export const invoiceViewQuerySchema = z
  .object({
    ...invoiceListQueryShape,
    status: statusListSchema.optional(),
    q: z
      .string()
      .transform(viewText)
      .pipe(z.string().max(VIEW_QUERY_MAX, { error: `must be at most ${VIEW_QUERY_MAX} characters` }))
      .transform((value) => value || undefined)
      .optional(),
    /** Exactly these invoices (a selection of rows, to export), at most a page's worth; comma-separated. */
    ids: z
      .string()
      .transform(commaList)
      .pipe(z.array(z.string()).max(PAGE_SIZE_MAX, { error: `must name at most ${PAGE_SIZE_MAX} invoices` }))
      .transform((list) => (list.length ? list : undefined))
      .optional(),
  })
  .check(checkCreatedRange);
export type InvoiceViewQuery = z.output<typeof invoiceViewQuerySchema>;

/** The provider's own query for a view it can answer (one status or none, no text); null for any other. */
export function providerQuery(view: InvoiceViewQuery): InvoiceListQuery | null {
  const { status, q, ids, ...rest } = view;
  if (q || ids || (status && status.length > 1)) return null;
  return { ...rest, ...(status?.length ? { status: status[0] } : {}) };
}

/** How complete and fresh the mirror is, beside every answer it gives. */
export const mirrorStateSchema = z.object({
  /** filling: the first fill is under way (invoices may be missing); ready: every invoice was listed once. */
  state: z.enum(["filling", "ready"]),
  /** Every change before this instant is in the mirror; null before the first complete walk. */
  as_of: z.string().nullable(),
  /** While filling: how far it has come (absent from a provider's own answer). */
  progress: fillProgressSchema.nullable().optional(),
});
export type MirrorState = z.infer<typeof mirrorStateSchema>;

/** GET /api/invoices: the provider's page, or the mirror's with its freshness (`mirror`). */
export const invoiceViewListSchema = invoiceListSchema.extend({ mirror: mirrorStateSchema.optional() });
export type InvoiceViewList = z.infer<typeof invoiceViewListSchema>;

/**
 * GET /api/invoices/summary: how many invoices the view holds and their sums, exact decimal strings per fiat
 * currency and per crypto currency, always from the mirror (no provider sums).
 */
export const invoiceSummarySchema = z.object({
  count: z.number().int(),
  fiat: z.record(z.string(), decimalAmount),
  crypto: z.record(z.string(), decimalAmount),
  /** How many invoices of the view are in each status. */
  statuses: z.record(z.string(), z.number().int()),
  as_of: z.string().nullable(),
  state: z.enum(["filling", "ready"]),
  /** While filling: how far it has come; the totals are partial until then. */
  progress: fillProgressSchema.nullable().optional(),
});
export type InvoiceSummary = z.infer<typeof invoiceSummarySchema>;
