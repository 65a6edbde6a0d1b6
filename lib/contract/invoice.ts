import { z } from "zod";
import { toDecimal } from "./money";

/*
 * The console's shapes of the API (`invoiceSchema`, `currencyListSchema`, …): the one shape every page and the
 * browser see, already normalised by the upstream client (lib/console/upstream/normalise.ts) from whatever a
 * provider that speaks the spec sent, so every optional value is `null` when absent or odd. The requests have
 * modules of their own (./list-query-schema.ts, ./status-change.ts, ./archived-request.ts, ./rates.ts). What our
 * own provider answers (`apiInvoiceSchema`, …) is the sandbox's and lives with it (lib/sandbox/wire-schemas.ts,
 * ARCHITECTURE.md §3): it binds the sandbox, never the console.
 */

// ---- The console's shapes (after normalising) -------------------------------------------------------

/** An instant as UTC ISO 8601 (`2026-01-31T12:00:00.000Z`); null when the provider gave none or an odd one. */
const instantOrNull = z.string().nullable();
const numberOrNull = z.number().finite().nullable();
const textOrNull = z.string().nullable();

/**
 * An amount, a rate or a total: a JSON number literal (as lossless-json keeps it, or as a number)
 * or a decimal string, given back as its canonical decimal string (lib/contract/money.ts) — never a float.
 * Anything else is refused. The console's own API sends these as strings.
 */
export const decimalAmount = z
  .unknown()
  .transform((value, ctx) => {
    const decimal = toDecimal(value);
    if (decimal === null) {
      ctx.issues.push({
        code: "custom",
        input: value,
        message: "must be a decimal number, such as 12.50 (a JSON number or a string of digits)",
      });
      return z.NEVER;
    }
    return decimal;
  })
  .meta({ description: 'A decimal as a string of digits, exactly as the provider sent it (`"0.123456789012345678"`).', type: "string" });
const decimalOrNull = z.union([z.null(), decimalAmount]);

export const transactionSchema = z.object({
  tx_hash: textOrNull,
  amount: decimalOrNull,
  confirmations: numberOrNull,
  block_height: numberOrNull,
  seen_at: instantOrNull,
  /** Only http(s): it is rendered as a link. */
  explorer_url: textOrNull,
});

export const paymentSchema = z.object({
  address: textOrNull,
  network: textOrNull,
  amount_due: decimalOrNull,
  amount_received: decimalOrNull,
  rate: decimalOrNull,
  paid_at: instantOrNull,
  confirmations: numberOrNull,
  confirmations_required: numberOrNull,
  transactions: z.array(transactionSchema),
});

/**
 * Which amount of an archived invoice was given (`priced_in`, a sandbox extension, docs/sandbox.md "Archived
 * invoices"); the other was derived at `payment.rate`.
 */
export const pricedInSchema = z.enum(["fiat", "crypto"]);
export type PricedIn = z.infer<typeof pricedInSchema>;

/** A field the provider sent that the console has no place for: shown as it is on the invoice page. */
export const providerFieldSchema = z.object({ key: z.string(), value: z.unknown() });

export const invoiceSchema = z.object({
  /** Opaque: whatever the provider uses, used as it is (URL-encoded in paths). */
  invoice_id: z.string().min(1),
  order_id: textOrNull,
  order_name: textOrNull,
  /** Any string: a status the console does not know is shown as it is. */
  status: textOrNull,
  fiat_amount: decimalOrNull,
  fiat_currency: z.string(),
  crypto_amount: decimalOrNull,
  currency: textOrNull,
  allowed_error_percent: numberOrNull,
  callback_url: textOrNull,
  created_at: instantOrNull,
  updated_at: instantOrNull,
  expires_at: instantOrNull,
  /**
   * Which amount the invoice was priced in — `fiat` or `crypto` — when the provider says (our sandbox does on
   * archived invoices: `priced_in`); the other was derived at `payment.rate`. Null when it does not say. The
   * exports write it, and the archive import sends that amount (docs/user-guide.md, "Recording archived invoices").
   */
  priced_in: pricedInSchema.nullable(),
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

/**
 * The spec's pagination of page `page` (of `pageSize`) over `total` records. The provider says 0 pages for an empty
 * list; the console's own lists keep one page to show (`atLeastOnePage`).
 */
export function paginationOf(page: number, pageSize: number, total: number, { atLeastOnePage = false } = {}): Pagination {
  const totalPages = Math.max(atLeastOnePage ? 1 : 0, Math.ceil(total / pageSize));
  return {
    current_page: page,
    page_size: pageSize,
    total_pages: totalPages,
    total_records: total,
    has_next: page < totalPages,
    has_previous: page > 1,
  };
}

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

/** RFC 9457 problem details, with our `code` and field-level `errors` (ARCHITECTURE.md §3). */
export const problemSchema = z
  .looseObject({
    type: z.string().optional(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string().optional(),
    code: z.string().optional(),
    errors: z.array(z.object({ pointer: z.string(), code: z.string().optional(), detail: z.string() })).optional(),
  })
  .meta({
    id: "Problem",
    description:
      "RFC 9457 problem details with a stable `code`; validation failures name each broken rule in `errors[]` by a JSON Pointer.",
  });

export type Transaction = z.infer<typeof transactionSchema>;
export type Payment = z.infer<typeof paymentSchema>;
export type ProviderField = z.infer<typeof providerFieldSchema>;
export type Invoice = z.infer<typeof invoiceSchema>;
export type Pagination = z.infer<typeof paginationSchema>;
export type InvoiceList = z.infer<typeof invoiceListSchema>;
export type Currency = z.infer<typeof currencySchema>;
export type CurrencyList = z.infer<typeof currencyListSchema>;
export type ProblemBody = z.infer<typeof problemSchema>;
