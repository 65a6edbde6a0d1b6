import { z } from "zod";
import {
  canonicalDecimal,
  decimalShape,
  isDecimalText,
  isLosslessNumber,
  jsonNumber,
  type LosslessNumber,
  numberToDecimal,
  stringifyJson,
} from "@/lib/contract/money-json";
import { reasonSchema } from "./approvals";
import { CURRENCY_CODE, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, SORT_FIELDS, SORT_ORDERS } from "./list-query";
import { toDecimal } from "./money";
import { ALL_INVOICE_STATUSES, INVOICE_STATUSES } from "./status";

/*
 * The console's shapes of the API (`invoiceSchema`, `currencyListSchema`, …): the one shape every page and the
 * browser see, already normalised by the upstream client (lib/console/upstream/normalise.ts) from whatever a
 * provider that speaks the spec sent, so every optional value is `null` when absent or odd; and the requests, which
 * the console checks before sending and the sandbox checks on arrival. Request shapes are strict because we answer
 * for them. What our own provider answers (`apiInvoiceSchema`, …) is the sandbox's and lives with it
 * (lib/sandbox/wire-schemas.ts, ARCHITECTURE.md §3): it binds the sandbox, never the console.
 */

const isoDateTime = z.iso.datetime({ offset: true });

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

/** EUR per one unit of each currency, by upper-case code (spec §4.6). */
export const ratesSchema = z.object({ rates: z.record(z.string(), decimalAmount) });

/**
 * The console's cached rates (GET /api/rates): the last good values, the ones before them, how old they are,
 * and — when the last attempt failed — why, and when the console will ask the provider again.
 */
export const ratesViewSchema = z.object({
  rates: z.record(z.string(), decimalAmount),
  previous_rates: z.record(z.string(), decimalAmount).nullable(),
  fetched_at: z.string(),
  previous_fetched_at: z.string().nullable(),
  /** Whole seconds since the values were fetched, when this answer was made. */
  age_seconds: z.number().int().min(0),
  stale: z.boolean(),
  /** `rate_limited` (the provider answered 429) or `upstream_error`; null when fresh. */
  stale_reason: z.enum(["rate_limited", "upstream_error"]).nullable(),
  stale_detail: z.string().nullable(),
  /** When the console will next ask the provider (never before the provider's Retry-After). */
  next_try_at: z.string(),
  /** Seconds until then, when this answer was made. */
  retry_in_seconds: z.number().int().min(0),
});

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
export type Rates = z.infer<typeof ratesSchema>;
export type RatesView = z.infer<typeof ratesViewSchema>;
export type ProblemBody = z.infer<typeof problemSchema>;

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

/** PATCH /invoices/{id} (spec §4.2): only the six statuses; `archived` comes from POST /archived alone. */
export const invoiceStatusUpdateSchema = z.object({
  status: z.enum(INVOICE_STATUSES, { error: `must be one of ${INVOICE_STATUSES.join(", ")}` }),
});
export type InvoiceStatusUpdate = z.infer<typeof invoiceStatusUpdateSchema>;

/**
 * The console's own request to change a status: the API's body plus the reason the audit log keeps. Every
 * manual change says why (the provider's PATCH has no reason: the console keeps it).
 */
export const statusChangeRequestSchema = invoiceStatusUpdateSchema.extend({ reason: reasonSchema });
export type StatusChangeRequest = z.input<typeof statusChangeRequestSchema>;

// ---- POST /archived (spec §4.5) ------------------------------------------------------------------------

/** The sandbox's `allowed_error_percent` when a request omits it (ARCHITECTURE.md §3); the OpenAPI document and the form say so. */
export const ALLOWED_ERROR_PERCENT_DEFAULT = 1;
/** The clock skew tolerated for "created_at must not be in the future". */
export const CREATED_AT_SKEW_MS = 60_000;
/** The earliest `created_at` an archived invoice may have (ids are time-ordered UUID v7s). */
export const CREATED_AT_EARLIEST = "2000-01-01";
/**
 * The largest amounts the ledger's columns hold (lib/sandbox/schema.ts): EUR in numeric(18, 2) — 16 digits before
 * the point, cents after it — and crypto in numeric(38, 18): 20 digits before the point, 18 after it.
 */
export const FIAT_AMOUNT_LIMIT = { integerDigits: 16, places: 2, max: "9999999999999999.99" } as const;
export const CRYPTO_AMOUNT_LIMIT = { integerDigits: 20, places: 18, max: "99999999999999999999.999999999999999999" } as const;
export const ORDER_ID_MAX = 200;
export const ORDER_NAME_MAX = 500;

const AMOUNT_FIELDS = ["fiat_amount", "crypto_amount"] as const;

/** 9999999999999999.99 → "9,999,999,999,999,999.99": a limit as a person reads it (from the text, no float). */
export function groupDigits(decimal: string): string {
  const [whole, fraction] = decimal.split(".");
  return whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",") + (fraction ? `.${fraction}` : "");
}

/**
 * An amount in a request: a JSON number, read as the text it was sent as (a `LosslessNumber` from the
 * sandbox's lossless body reader, lib/platform/http-body.ts) or — from the console's own form, until it sends text — a
 * JS number, as the decimal it prints as. Normalised to a canonical decimal string (`"49.9"`); every rule is
 * checked on the digits, never on a float: at least 0, at most the column's digits before and after the point.
 */
const optionalAmount = (what: string, limit: typeof FIAT_AMOUNT_LIMIT | typeof CRYPTO_AMOUNT_LIMIT, placesMessage: string) =>
  z
    .custom<number | LosslessNumber>((v) => typeof v === "number" || isLosslessNumber(v), { error: `must be a number (${what})` })
    .meta({
      override: { type: "number", minimum: 0 },
      description: `A JSON number ≥ 0, read with exactly the digits sent: at most ${groupDigits(limit.max)}, at most ${limit.places} decimal places.`,
    })
    .transform((value, ctx) => {
      const refuse = (message: string) => {
        ctx.issues.push({ code: "custom", input: value, message });
        return z.NEVER;
      };
      if (typeof value === "number" && !Number.isFinite(value)) return refuse("must be a finite number");
      const text = typeof value === "number" ? numberToDecimal(value) : value.value;
      if (!isDecimalText(text)) return refuse(`must be a number (${what})`);
      const shape = decimalShape(text);
      if (shape.negative) return refuse("must be 0 or more");
      if (shape.integerDigits > limit.integerDigits)
        return refuse(`must be at most ${groupDigits(limit.max)}: the largest amount the ledger holds`);
      if (shape.places > limit.places) return refuse(placesMessage);
      return canonicalDecimal(text);
    })
    .nullish();

/** A whole number in a request body, also when the lossless reader kept its literal as text. */
const jsonInteger = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (isLosslessNumber(v) ? Number(v.value) : v), schema);

/**
 * `created_at` of an archived invoice: `YYYY-MM-DD` (midnight UTC) or an ISO 8601 date-time with an offset,
 * not in the future (a minute of clock skew tolerated), returned as a UTC instant.
 */
export const archivedCreatedAtSchema = z
  .string({ error: "must be a date (2026-01-31) or a date-time with an offset (2026-01-31T12:00:00+01:00)" })
  .trim()
  .pipe(
    z.union([z.iso.date(), isoDateTime], {
      error: "must be a date (2026-01-31) or a date-time with an offset (2026-01-31T12:00:00+01:00)",
    }),
  )
  .transform((value) => new Date(value.length === 10 ? `${value}T00:00:00Z` : value))
  .check((ctx) => {
    const time = ctx.value.getTime();
    if (Number.isNaN(time) || time < Date.parse(`${CREATED_AT_EARLIEST}T00:00:00Z`)) {
      ctx.issues.push({ code: "custom", input: ctx.value, message: `must be on or after ${CREATED_AT_EARLIEST}` });
    } else if (time > Date.now() + CREATED_AT_SKEW_MS) {
      ctx.issues.push({ code: "custom", input: ctx.value, message: "must not be in the future" });
    }
  })
  .transform((date) => date.toISOString())
  .meta({
    description: `\`YYYY-MM-DD\` (midnight UTC) or an ISO 8601 date-time with an offset; from ${CREATED_AT_EARLIEST}, not in the future (a minute of clock skew tolerated). Default: now.`,
    examples: ["2025-01-15", "2025-01-15T14:30:00+01:00"],
  });

/**
 * GET /api/rates/history?at=… (the console's route; docs/user-guide.md, "Rates in the console"): the instant whose rates
 * are wanted, as the archive form's created_at is written — a date (midnight UTC) or a date-time with an
 * offset, from 2000-01-01, not in the future.
 */
export const ratesHistoryQuerySchema = z.object({
  at: archivedCreatedAtSchema,
});

/** The UTC minute an instant falls in, as an ISO string ("2025-03-01T14:03:00.000Z"): the rates' unit of time. */
export function rateMinute(instant: string | Date): string {
  const time = new Date(instant).getTime();
  return new Date(time - (((time % 60_000) + 60_000) % 60_000)).toISOString();
}

/**
 * Its answer: EUR per one unit of each currency at `at`, the minute the provider priced (UTC ISO). `at` is
 * null when the provider did not honour the question (the spec's GET /rates knows no `at`): then `rates` are
 * its current ones, and must be shown as such.
 */
export const historicalRatesSchema = z.object({
  rates: z.record(z.string(), decimalAmount),
  at: z.string().nullable(),
});
export type HistoricalRates = z.infer<typeof historicalRatesSchema>;

/**
 * POST /archived (spec §4.5): the body as the sandbox accepts it and as the console checks it before sending.
 * `null` counts as absent for every optional field. Strict: an unknown field is a 422 naming it (a typo in a
 * field name must not silently drop a value from a record).
 */
export const archivedInvoiceRequestSchema = z
  .strictObject(
    {
      order_id: z
        .string({ error: "is required: the order's identifier in your system" })
        .trim()
        .min(1, { error: "is required: the order's identifier in your system" })
        .max(ORDER_ID_MAX, { error: `must be at most ${ORDER_ID_MAX} characters` }),
      order_name: z
        .string({ error: "must be text" })
        .trim()
        .max(ORDER_NAME_MAX, { error: `must be at most ${ORDER_NAME_MAX} characters` })
        .nullish(),
      fiat_amount: optionalAmount("EUR", FIAT_AMOUNT_LIMIT, "must have at most 2 decimal places (cents)"),
      fiat_currency: z.literal("EUR", { error: "must be EUR: the only fiat currency supported" }).nullish(),
      crypto_amount: optionalAmount(
        "in the cryptocurrency",
        CRYPTO_AMOUNT_LIMIT,
        `must have at most ${CRYPTO_AMOUNT_LIMIT.places} decimal places`,
      ),
      currency: z
        .string({ error: "is required: a cryptocurrency code from /currencies, such as BTC" })
        .trim()
        .regex(/^[A-Za-z0-9]{2,10}$/, { error: "must be a cryptocurrency code from /currencies, such as BTC" })
        .transform((code) => code.toUpperCase()),
      allowed_error_percent: jsonInteger(
        z
          .int({ error: "must be a whole number from 0 to 100" })
          .min(0, { error: "must be a whole number from 0 to 100" })
          .max(100, { error: "must be a whole number from 0 to 100" })
          .nullish(),
      ).meta({
        description: `Allowed payment error in percent, 0–100. Default ${ALLOWED_ERROR_PERCENT_DEFAULT}.`,
        override: { default: ALLOWED_ERROR_PERCENT_DEFAULT },
      }),
      callback_url: z
        .url({ protocol: /^https?$/, error: "must be an absolute http(s) URL, such as https://shop.example.com/webhooks" })
        .max(2000, { error: "must be at most 2000 characters" })
        .nullish(),
      created_at: archivedCreatedAtSchema.nullish(),
    },
    {
      error: (issue) =>
        issue.code === "unrecognized_keys" ? `is not a field of an archived invoice (${issue.keys.join(", ")})` : undefined,
    },
  )
  .check((ctx) => {
    const given = AMOUNT_FIELDS.filter((f) => ctx.value[f] != null);
    if (given.length === 1) return;
    const message = given.length === 2 ? "give fiat_amount or crypto_amount, not both" : "give fiat_amount or crypto_amount";
    for (const field of AMOUNT_FIELDS) ctx.issues.push({ code: "custom", input: ctx.value[field], path: [field], message });
  });

export type ArchivedInvoiceRequest = z.input<typeof archivedInvoiceRequestSchema>;
export type ArchivedInvoiceInput = z.output<typeof archivedInvoiceRequestSchema>;

/** A checked archive request's fields that were given: those left empty (null or absent) are not sent. */
export type ArchivedInvoiceFields = { [F in keyof ArchivedInvoiceInput]?: NonNullable<ArchivedInvoiceInput[F]> };

/**
 * A checked archive request without the fields left empty (null or absent), in its order: what is sent, so the
 * provider's defaults apply, and what the audit log records as sent (lib/console/invoices/archive.ts).
 */
export function archivedInvoiceRequestFields(body: ArchivedInvoiceInput): ArchivedInvoiceFields {
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== null && value !== undefined));
}

/**
 * A checked archive request as JSON text: its amounts (decimal strings) written as JSON numbers with exactly
 * their digits, fields left empty not sent (archivedInvoiceRequestFields).
 */
export function archivedInvoiceRequestJson(body: ArchivedInvoiceInput): string {
  return stringifyJson(
    Object.fromEntries(
      Object.entries(archivedInvoiceRequestFields(body)).map(([field, value]) => [
        field,
        (AMOUNT_FIELDS as readonly string[]).includes(field) && typeof value === "string" ? jsonNumber(value) : value,
      ]),
    ),
  );
}

/**
 * The columns of an invoice in CSV, once for both directions: the export (a later issue) writes all of them,
 * payment fields flattened and transaction hashes joined with spaces; the archive import reads the subset
 * POST /archived accepts and ignores the rest.
 */
export const INVOICE_CSV_COLUMNS = [
  "invoice_id",
  "order_id",
  "order_name",
  "status",
  "fiat_amount",
  "fiat_currency",
  "crypto_amount",
  "currency",
  "priced_in",
  "allowed_error_percent",
  "callback_url",
  "created_at",
  "updated_at",
  "expires_at",
  "payment_address",
  "payment_network",
  "payment_amount_due",
  "payment_amount_received",
  "payment_rate",
  "payment_paid_at",
  "payment_confirmations",
  "payment_confirmations_required",
  "tx_hashes",
] as const;
export type InvoiceCsvColumn = (typeof INVOICE_CSV_COLUMNS)[number];

/** The columns the archive import sends to POST /archived. */
export const ARCHIVE_CSV_COLUMNS = [
  "order_id",
  "order_name",
  "fiat_amount",
  "fiat_currency",
  "crypto_amount",
  "currency",
  "allowed_error_percent",
  "callback_url",
  "created_at",
] as const satisfies readonly InvoiceCsvColumn[];

/**
 * Columns the archive import reads without sending them: which amount to send (`priced_in`) and the rate the
 * other will be derived at (`payment_rate`), to show it and flag a row whose file value differs.
 */
export const ARCHIVE_CSV_READ_COLUMNS = ["priced_in", "payment_rate"] as const satisfies readonly InvoiceCsvColumn[];

/** What a 400 on POST /archived suggests sending. */
export const ARCHIVED_BODY_EXAMPLE = '{"order_id": "ORD-1001", "currency": "BTC", "fiat_amount": 49.9}';
