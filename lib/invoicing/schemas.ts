import { z } from "zod";
import { ALL_INVOICE_STATUSES, INVOICE_STATUSES } from "./status";

/*
 * Response shapes are tolerant (loose objects, optional extras as nullable) because the console must work
 * against any provider that speaks the spec; request shapes are strict because we answer for them.
 */

const isoDateTime = z.iso.datetime({ offset: true });
const amount = z.number().finite();

export const transactionSchema = z.looseObject({
  tx_hash: z.string(),
  amount: amount,
  confirmations: z.number().int().nullish(),
  block_height: z.number().int().nullish(),
  seen_at: isoDateTime.nullish(),
  // Rendered as a link: only http(s), and a bad one is dropped rather than failing the whole answer.
  explorer_url: z.url({ protocol: /^https?$/ }).nullish().catch(null),
});

export const paymentSchema = z.looseObject({
  address: z.string().nullish(),
  network: z.string().nullish(),
  amount_due: amount.nullish(),
  amount_received: amount.nullish(),
  rate: amount.nullish(),
  paid_at: isoDateTime.nullish(),
  confirmations: z.number().int().nullish(),
  confirmations_required: z.number().int().nullish(),
  transactions: z.array(transactionSchema).nullish(),
});

export const invoiceSchema = z.looseObject({
  invoice_id: z.string().min(1),
  order_id: z.string(),
  order_name: z.string().nullish(),
  // Any string: a provider that adds a status must not take the whole list down; the UI shows it as is.
  status: z.string(),
  fiat_amount: amount,
  fiat_currency: z.string().default("EUR"),
  crypto_amount: amount,
  currency: z.string(),
  allowed_error_percent: z.number().int().nullish(),
  callback_url: z.string().nullish(),
  created_at: isoDateTime,
  updated_at: isoDateTime,
  expires_at: isoDateTime.nullish(),
  payment: paymentSchema.nullish(),
});

export const paginationSchema = z.looseObject({
  current_page: z.number().int(),
  page_size: z.number().int(),
  total_pages: z.number().int(),
  total_records: z.number().int(),
  has_next: z.boolean(),
  has_previous: z.boolean(),
});

export const invoiceListSchema = z.looseObject({
  items: z.array(invoiceSchema),
  pagination: paginationSchema,
});

export const currencySchema = z.looseObject({
  code: z.string(),
  name: z.string(),
  network: z.string().nullish(),
  decimals: z.number().int().nullish(),
});

export const currencyListSchema = z.looseObject({ currencies: z.array(currencySchema) });

/** RFC 9457 problem details, with our `code` and field-level `errors` (DESIGN §3). */
export const problemSchema = z.looseObject({
  type: z.string().optional(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string().optional(),
  code: z.string().optional(),
  errors: z
    .array(z.object({ pointer: z.string(), code: z.string().optional(), detail: z.string() }))
    .optional(),
});

export type Transaction = z.infer<typeof transactionSchema>;
export type Payment = z.infer<typeof paymentSchema>;
export type Invoice = z.infer<typeof invoiceSchema>;
export type Pagination = z.infer<typeof paginationSchema>;
export type InvoiceList = z.infer<typeof invoiceListSchema>;
export type Currency = z.infer<typeof currencySchema>;
export type CurrencyList = z.infer<typeof currencyListSchema>;
export type ProblemBody = z.infer<typeof problemSchema>;

export const SORT_FIELDS = ["created_at", "updated_at", "fiat_amount", "crypto_amount"] as const;
export type SortField = (typeof SORT_FIELDS)[number];
export const SORT_ORDERS = ["asc", "desc"] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

export const PAGE_SIZE_DEFAULT = 20;
export const PAGE_SIZE_MAX = 100;

/** A date (midnight UTC) or a date-time with offset, normalised to an ISO instant. */
const instant = z
  .string()
  .trim()
  .pipe(z.union([z.iso.date(), isoDateTime], { error: "must be an ISO 8601 date (2026-01-31) or date-time with offset (2026-01-31T12:00:00Z)" }))
  .transform((value) => new Date(value.length === 10 ? `${value}T00:00:00Z` : value))
  .refine((date) => date.getUTCFullYear() >= 1 && date.getUTCFullYear() <= 9999, { error: "must fall between the years 0001 and 9999" })
  .transform((date) => date.toISOString());

const wholeNumber = (min: number, max: number, fallback: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, { error: `must be a whole number from ${min} to ${max === Infinity ? "up" : max}` })
    .transform(Number)
    .pipe(z.number().min(min, { error: `must be at least ${min}` }).max(max, { error: `must be at most ${max}` }))
    .default(fallback);

/**
 * GET /invoices query parameters (spec §4.1), parsed from the raw strings of a query string. Both the
 * sandbox and the console's proxy validate with this, so they agree on every rule and message.
 */
export const invoiceListQuerySchema = z
  .object({
    status: z.enum(ALL_INVOICE_STATUSES, { error: `must be one of ${ALL_INVOICE_STATUSES.join(", ")}` }).optional(),
    currency: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9]{2,10}$/, { error: "must be a currency code such as BTC" })
      .transform((code) => code.toUpperCase())
      .optional(),
    created_after: instant.optional(),
    created_before: instant.optional(),
    page: wholeNumber(1, Number.MAX_SAFE_INTEGER, 1),
    page_size: wholeNumber(1, PAGE_SIZE_MAX, PAGE_SIZE_DEFAULT),
    sort_by: z.enum(SORT_FIELDS, { error: `must be one of ${SORT_FIELDS.join(", ")}` }).default("created_at"),
    sort_order: z.enum(SORT_ORDERS, { error: "must be asc or desc" }).default("desc"),
  })
  .check((ctx) => {
    const { created_after, created_before } = ctx.value;
    if (created_after && created_before && created_after >= created_before) {
      ctx.issues.push({
        code: "custom",
        input: created_before,
        path: ["created_before"],
        message: "must be later than created_after",
      });
    }
  });

export type InvoiceListQuery = z.output<typeof invoiceListQuerySchema>;

/** Turns URLSearchParams into the plain object the query schema reads; blank values count as absent. */
export function searchParamsToObject(params: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of params) if (value.trim() !== "" && !(key in out)) out[key] = value;
  return out;
}

/** The query string for a list query: every parameter that has a value. */
export function invoiceListQueryToSearchParams(query: Partial<InvoiceListQuery>): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== "") params.set(key, String(value));
  }
  return params;
}

/** PATCH /invoices/{id} (spec §4.2): only the six statuses; `archived` comes from POST /archived alone. */
export const invoiceStatusUpdateSchema = z.object({
  status: z.enum(INVOICE_STATUSES, { error: `must be one of ${INVOICE_STATUSES.join(", ")}` }),
});
export type InvoiceStatusUpdate = z.infer<typeof invoiceStatusUpdateSchema>;

export const REASON_MAX = 500;

/**
 * The console's own request to change a status: the API's body plus the reason the audit log keeps. A
 * cancellation must say why.
 */
export const statusChangeRequestSchema = invoiceStatusUpdateSchema
  .extend({
    reason: z.string().trim().max(REASON_MAX, { error: `must be at most ${REASON_MAX} characters` }).default(""),
  })
  .check((ctx) => {
    if (ctx.value.status === "cancelled" && !ctx.value.reason) {
      ctx.issues.push({ code: "custom", input: ctx.value.reason, path: ["reason"], message: "is required to cancel an invoice: say why the order was voided" });
    }
  });
export type StatusChangeRequest = z.input<typeof statusChangeRequestSchema>;
