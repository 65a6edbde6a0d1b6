import { z } from "zod";
import { CURRENCY_CODE, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, SORT_FIELDS, SORT_ORDERS } from "./list-query";
import { ALL_INVOICE_STATUSES } from "./status";

// GET /invoices's query as a schema: the sandbox and the console's proxy both validate with it, so they agree on
// every rule and message. Its plain values (sort fields, page sizes) are ./list-query.ts's, which the browser's
// first load takes without zod.

const isoDateTime = z.iso.datetime({ offset: true });

/** A date (midnight UTC) or a date-time with offset, normalised to an ISO instant. */
const instant = z
  .string()
  .trim()
  .pipe(
    z.union([z.iso.date(), isoDateTime], {
      error: "must be an ISO 8601 date (2026-01-31) or date-time with offset (2026-01-31T12:00:00Z)",
    }),
  )
  .transform((value) => new Date(value.length === 10 ? `${value}T00:00:00Z` : value))
  // Years 0001–9999 in UTC: what ISO 8601's four-digit years, JavaScript's ISO strings and the sandbox's day
  // arithmetic agree on. A leap second (23:59:60) is no ISO date-time here either: a 422.
  .refine((date) => date.getUTCFullYear() >= 1 && date.getUTCFullYear() <= 9999, {
    error: "must fall between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z (the years 0001 to 9999 in UTC)",
  })
  .transform((date) => date.toISOString())
  .meta({
    description: "A date (`2026-01-31`, midnight UTC) or a date-time with an offset (`2026-01-31T12:00:00+01:00`).",
    examples: ["2026-01-31", "2026-01-31T12:00:00Z"],
  });

const wholeNumber = (min: number, max: number, fallback: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, { error: `must be a whole number from ${min} to ${max === Infinity ? "up" : max}` })
    .transform(Number)
    .pipe(
      z
        .number()
        .min(min, { error: `must be at least ${min}` })
        .max(max, { error: `must be at most ${max}` }),
    )
    .default(fallback)
    .meta({ description: `A whole number from ${min}${max === Number.MAX_SAFE_INTEGER ? " up" : ` to ${max}`}; default ${fallback}.` });

/**
 * GET /invoices query parameters (spec §4.1), parsed from the raw strings of a query string. Both the
 * sandbox and the console's proxy validate with this, so they agree on every rule and message.
 */
export const invoiceListQueryShape = {
  status: z.enum(ALL_INVOICE_STATUSES, { error: `must be one of ${ALL_INVOICE_STATUSES.join(", ")}` }).optional(),
  currency: z.string().trim().regex(CURRENCY_CODE, { error: "must be a currency code such as BTC or USDT.TRC20" }).optional(),
  created_after: instant.optional().meta({
    description:
      "Only invoices created strictly after this instant. A plain date means the start of that day in UTC: `created_after=2026-01-31` is after 2026-01-31T00:00:00Z, so it takes the 31st itself (all but an invoice created at exactly midnight). For days in another zone, send date-times with its offset.",
    examples: ["2026-01-31", "2026-01-31T00:00:00+01:00"],
  }),
  created_before: instant.optional().meta({
    description:
      "Only invoices created strictly before this instant. A plain date means the start of that day in UTC: `created_before=2026-02-01` ends with the last instant of January 31st, so to take a whole day, send the day after it. For days in another zone, send date-times with its offset.",
    examples: ["2026-02-01", "2026-02-01T00:00:00+01:00"],
  }),
  page: wholeNumber(1, Number.MAX_SAFE_INTEGER, 1),
  page_size: wholeNumber(1, PAGE_SIZE_MAX, PAGE_SIZE_DEFAULT),
  sort_by: z.enum(SORT_FIELDS, { error: `must be one of ${SORT_FIELDS.join(", ")}` }).default("created_at"),
  sort_order: z.enum(SORT_ORDERS, { error: "must be asc or desc" }).default("desc"),
};

/** created_before must be later than created_after: the one rule between two of the list's parameters. */
export function checkCreatedRange(ctx: z.core.ParsePayload<{ created_after?: unknown; created_before?: unknown }>): void {
  const { created_after, created_before } = ctx.value;
  // Compared only when both were read as instants: a bound already refused is not "earlier" as well.
  if (typeof created_after === "string" && typeof created_before === "string" && created_after >= created_before) {
    ctx.issues.push({
      code: "custom",
      input: created_before,
      path: ["created_before"],
      message: "must be later than created_after",
    });
  }
}

export const invoiceListQuerySchema = z.object(invoiceListQueryShape).check(checkCreatedRange);

export type InvoiceListQuery = z.output<typeof invoiceListQuerySchema>;
