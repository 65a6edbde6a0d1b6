import { z } from "zod";
import { ALL_INVOICE_STATUSES, INVOICE_STATUSES } from "./status";

/*
 * Two families of shapes. The console's (`invoiceSchema`, `currencyListSchema`, …) is the one shape every
 * page and the browser see: already normalised by the upstream client (lib/upstream/normalise.ts) from
 * whatever a provider that speaks the spec sent, so every optional value is `null` when absent or odd.
 * The sandbox's (`apiInvoiceSchema`, …) is what our own provider answers (DESIGN §3): it binds the sandbox,
 * never the console. Request shapes are strict because we answer for them.
 */

const isoDateTime = z.iso.datetime({ offset: true });
const amount = z.number().finite();

// ---- The console's shapes (after normalising) -------------------------------------------------------

/** An instant as UTC ISO 8601 (`2026-01-31T12:00:00.000Z`); null when the provider gave none or an odd one. */
const instantOrNull = z.string().nullable();
const numberOrNull = z.number().finite().nullable();
const textOrNull = z.string().nullable();

export const transactionSchema = z.object({
  tx_hash: textOrNull,
  amount: numberOrNull,
  confirmations: numberOrNull,
  block_height: numberOrNull,
  seen_at: instantOrNull,
  /** Only http(s): it is rendered as a link. */
  explorer_url: textOrNull,
});

export const paymentSchema = z.object({
  address: textOrNull,
  network: textOrNull,
  amount_due: numberOrNull,
  amount_received: numberOrNull,
  rate: numberOrNull,
  paid_at: instantOrNull,
  confirmations: numberOrNull,
  confirmations_required: numberOrNull,
  transactions: z.array(transactionSchema),
});

/** A field the provider sent that the console has no place for: shown as it is on the invoice page. */
export const providerFieldSchema = z.object({ key: z.string(), value: z.unknown() });

export const invoiceSchema = z.object({
  /** Opaque: whatever the provider uses, used as it is (URL-encoded in paths). */
  invoice_id: z.string().min(1),
  order_id: textOrNull,
  order_name: textOrNull,
  /** Any string: a status the console does not know is shown as it is. */
  status: textOrNull,
  fiat_amount: numberOrNull,
  fiat_currency: z.string(),
  crypto_amount: numberOrNull,
  currency: textOrNull,
  allowed_error_percent: numberOrNull,
  callback_url: textOrNull,
  created_at: instantOrNull,
  updated_at: instantOrNull,
  expires_at: instantOrNull,
  payment: paymentSchema.nullable(),
  /** Everything else the provider sent, so nothing a support person might need is hidden. */
  provider_fields: z.array(providerFieldSchema),
});

export const paginationSchema = z.object({
  current_page: z.number().int(),
  page_size: z.number().int(),
  total_pages: z.number().int(),
  total_records: z.number().int(),
  has_next: z.boolean(),
  has_previous: z.boolean(),
});

export const invoiceListSchema = z.object({
  items: z.array(invoiceSchema),
  pagination: paginationSchema,
});

export const currencySchema = z.object({
  code: z.string(),
  /** The code itself when the provider names none. */
  name: z.string(),
  network: textOrNull,
  decimals: numberOrNull,
});

export const currencyListSchema = z.object({ currencies: z.array(currencySchema) });

// ---- The sandbox's answers (DESIGN §3) ----------------------------------------------------------------

export const apiTransactionSchema = z.object({
  tx_hash: z.string(),
  amount: amount,
  confirmations: z.number().int(),
  block_height: z.number().int().nullable(),
  seen_at: isoDateTime,
  explorer_url: z.string().nullable(),
});

export const apiInvoiceSchema = z.object({
  invoice_id: z.string().min(1),
  order_id: z.string(),
  order_name: z.string().nullable(),
  status: z.string(),
  fiat_amount: amount,
  fiat_currency: z.string(),
  crypto_amount: amount,
  currency: z.string(),
  allowed_error_percent: z.number().int(),
  callback_url: z.string().nullable(),
  created_at: isoDateTime,
  updated_at: isoDateTime,
  expires_at: isoDateTime.nullable(),
  payment: z
    .object({
      address: z.string(),
      network: z.string().nullable(),
      amount_due: amount,
      amount_received: amount.nullable(),
      rate: amount.nullable(),
      paid_at: isoDateTime.nullable(),
      confirmations: z.number().int().nullable(),
      confirmations_required: z.number().int().nullable(),
      transactions: z.array(apiTransactionSchema),
    })
    .nullable(),
});

export const apiInvoiceListSchema = z.object({ items: z.array(apiInvoiceSchema), pagination: paginationSchema });

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
export type ProviderField = z.infer<typeof providerFieldSchema>;
export type Invoice = z.infer<typeof invoiceSchema>;
export type Pagination = z.infer<typeof paginationSchema>;
export type InvoiceList = z.infer<typeof invoiceListSchema>;
export type Currency = z.infer<typeof currencySchema>;
export type CurrencyList = z.infer<typeof currencyListSchema>;
export type ApiInvoice = z.infer<typeof apiInvoiceSchema>;
export type ApiInvoiceList = z.infer<typeof apiInvoiceListSchema>;
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
 * A currency code as a provider may spell it (BTC, usdt, USDT.TRC20, USDC:ETH): passed on as given, since
 * the provider decides what its codes and their case are.
 */
export const CURRENCY_CODE = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,31}$/;

/**
 * GET /invoices query parameters (spec §4.1), parsed from the raw strings of a query string. Both the
 * sandbox and the console's proxy validate with this, so they agree on every rule and message.
 */
export const invoiceListQuerySchema = z
  .object({
    status: z.enum(ALL_INVOICE_STATUSES, { error: `must be one of ${ALL_INVOICE_STATUSES.join(", ")}` }).optional(),
    currency: z.string().trim().regex(CURRENCY_CODE, { error: "must be a currency code such as BTC or USDT.TRC20" }).optional(),
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
