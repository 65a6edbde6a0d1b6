import { z } from "zod";
import { ALLOWED_ERROR_PERCENT_DEFAULT, ORDER_ID_MAX, ORDER_NAME_MAX } from "./archived-limits";
import { hasControlOrBidi, NO_CONTROLS } from "./bidi";
import {
  canonicalDecimal,
  decimalShape,
  isDecimalText,
  isLosslessNumber,
  jsonNumber,
  type LosslessNumber,
  numberToDecimal,
  stringifyJson,
} from "./money-json";
import { isCalendarDay } from "./time-zone";

export { ALLOWED_ERROR_PERCENT_DEFAULT, ORDER_ID_MAX, ORDER_NAME_MAX };

// POST /archived (spec §4.5): the body as the sandbox accepts it and as the console checks it before sending.

const isoDateTime = z.iso.datetime({ offset: true });

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

const CREATED_AT_WORDS = "must be a date (2026-01-31) or a date-time with an offset (2026-01-31T12:00:00+01:00)";

/** What is wrong with a `created_at` that is not one, in the words a person fixes it by: a day that does not exist, or a day written day first. */
function createdAtWords(input: unknown): string {
  const text = typeof input === "string" ? input : "";
  const day = /^\d{4}-\d{2}-\d{2}/.exec(text)?.[0];
  if (day && !isCalendarDay(day)) return `has ${day}, which is not a day of the calendar; ${CREATED_AT_WORDS}`;
  if (/^\d{1,2}[./-]\d{1,2}[./-]\d{4}$/.test(text)) return `must be written year first, as YYYY-MM-DD (2026-01-31)`;
  return CREATED_AT_WORDS;
}

/**
 * `created_at` of an archived invoice: `YYYY-MM-DD` (midnight UTC) or an ISO 8601 date-time with an offset,
 * not in the future (a minute of clock skew tolerated), returned as a UTC instant.
 */
export const archivedCreatedAtSchema = z
  .string({ error: CREATED_AT_WORDS })
  .trim()
  .pipe(z.union([z.iso.date(), isoDateTime], { error: (issue) => createdAtWords(issue.input) }))
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
        .max(ORDER_ID_MAX, { error: `must be at most ${ORDER_ID_MAX} characters` })
        // A record kept for the books: a character that reorders the text would make it read as another order.
        .refine((id) => !hasControlOrBidi(id), { error: NO_CONTROLS }),
      order_name: z
        .string({ error: "must be text" })
        .trim()
        .max(ORDER_NAME_MAX, { error: `must be at most ${ORDER_NAME_MAX} characters` })
        .refine((name) => !hasControlOrBidi(name, { lines: true }), { error: NO_CONTROLS })
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

/** What a 400 on POST /archived suggests sending. */
export const ARCHIVED_BODY_EXAMPLE = '{"order_id": "ORD-1001", "currency": "BTC", "fiat_amount": 49.9}';
