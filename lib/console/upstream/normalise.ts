import "server-only";
import { isLosslessNumber, isSafeNumber } from "lossless-json";
import {
  type Decimal,
  type Invoice,
  type InvoiceList,
  type Pagination,
  type Payment,
  type ProviderField,
  type Transaction,
  toDecimal,
  type WebhookSimulationResult,
} from "@/lib/contract";

/*
 * Where the spec says "not shown", a provider made its own legal choice. Everything the console reads from
 * one is turned here, once, into the one shape of lib/contract: ids as given, numbers from numbers or
 * numeric strings, instants from any ISO 8601 form, `null` for anything absent or odd — one odd value never
 * takes a list down — and every field the console has no place for kept in `provider_fields`.
 *
 * These functions never throw on a field; they return null only when the answer as a whole is unusable
 * (an invoice without an id, a list without items), which the client reports as an answer it does not
 * understand.
 */

type Obj = Record<string, unknown>;

export const isObject = (value: unknown): value is Obj => typeof value === "object" && value !== null && !Array.isArray(value);

/** Reads fields by any of their names, remembering which ones were used: the rest are the provider's own. */
class Reader {
  private readonly used = new Set<string>();
  constructor(readonly raw: Obj) {}

  take(...names: string[]): unknown {
    for (const name of names) {
      if (name in this.raw) {
        this.used.add(name);
        if (this.raw[name] !== null && this.raw[name] !== undefined) return this.raw[name];
      }
    }
    return undefined;
  }

  /** Marks fields as handled without reading them (read by another reader). */
  claim(...names: string[]): void {
    for (const name of names) if (name in this.raw) this.used.add(name);
  }

  rest(prefix = ""): ProviderField[] {
    return Object.entries(this.raw)
      .filter(([key, value]) => !this.used.has(key) && value !== undefined)
      .map(([key, value]) => ({ key: `${prefix}${key}`, value: plainJson(value) }));
  }
}

/**
 * A provider's own field as plain JSON for the page: a number literal whose digits a JavaScript number
 * keeps exactly is a number, any other one its text, so no digit is lost on the way to the screen.
 */
function plainJson(value: unknown): unknown {
  if (isLosslessNumber(value)) return isSafeNumber(value.value) ? Number(value.value) : value.value;
  if (Array.isArray(value)) return value.map(plainJson);
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, plainJson(v)]));
  return value;
}

// ---- Values -------------------------------------------------------------------------------------------

const NUMERIC = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * A count, a height, a percentage — never money (amounts are decimals: `toAmount`): a number, a number
 * literal kept as text, or a numeric string ("12", " 1e3 "); anything else → null.
 */
export function toNumber(value: unknown): number | null {
  if (isLosslessNumber(value)) return toNumber(value.value);
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value === "string" && NUMERIC.test(value.trim())) {
    const n = Number(value.trim());
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

export function toInteger(value: unknown): number | null {
  const n = toNumber(value);
  return n !== null && Number.isInteger(n) ? n : null;
}

/**
 * An amount, a rate: a JSON number literal (with every digit the provider wrote) or a numeric string, as a
 * canonical decimal string (lib/contract/money.ts); anything else → null.
 */
export function toAmount(value: unknown): Decimal | null {
  return toDecimal(value);
}

/** A string as it is; a number as its decimal text (ids like 48213); anything else → null. */
export function toText(value: unknown): string | null {
  if (typeof value === "string") return value;
  if (isLosslessNumber(value)) return value.value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return null;
}

const CANONICAL_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?\s*(Z|z|[+-]\d{2}(?::?\d{2})?)?)?$/;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * A canonical instant that reads back the same: Date.parse refuses a 13th month or a 60th minute, but rolls
 * 2026-02-30 over to March and 24:00 to the next day. Checked without building a Date: three a row of a fill.
 */
function isRealCanonical(value: string): boolean {
  const year = Number(value.slice(0, 4));
  const month = Number(value.slice(5, 7));
  const day = Number(value.slice(8, 10));
  const leap = month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return (
    year >= 1 &&
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= DAYS_IN_MONTH[month - 1] + (leap ? 1 : 0) &&
    Number(value.slice(11, 13)) < 24 &&
    !Number.isNaN(Date.parse(value))
  );
}

/**
 * Any ISO 8601 instant → UTC ISO with milliseconds. Fractions of any length (cut to milliseconds), `Z`,
 * `+00:00`, `+0000` or `+00`; a date-time without an offset is read as UTC, a plain date as its midnight UTC.
 * Anything else → null.
 */
export function toInstant(value: unknown): string | null {
  if (typeof value !== "string") return null;
  // Already the one form (most providers, and every invoice of a mirror's fill): kept when it is a real instant.
  if (CANONICAL_INSTANT.test(value) && isRealCanonical(value)) return value;
  const m = ISO.exec(value.trim());
  if (!m) return null;
  const [, year, month, day, hour = "00", minute = "00", second = "00", fraction = "", zone = "Z"] = m;
  const ms = fraction.padEnd(3, "0").slice(0, 3);
  let offset = "Z";
  if (zone !== "Z" && zone !== "z") {
    const digits = zone.slice(1).replace(":", "").padEnd(4, "0");
    offset = `${zone[0]}${digits.slice(0, 2)}:${digits.slice(2, 4)}`;
  }
  const date = new Date(`${year}-${month}-${day}T${hour}:${minute}:${second}.${ms}${offset}`);
  if (Number.isNaN(date.getTime())) return null;
  // Date rolls 2026-02-30 over to March: a day that does not exist is odd, not a date.
  if (offset === "Z" && date.getUTCDate() !== Number(day)) return null;
  const year4 = date.getUTCFullYear();
  return year4 >= 1 && year4 <= 9999 ? date.toISOString() : null;
}

function toHttpUrl(value: unknown): string | null {
  if (typeof value !== "string") return null;
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
  } catch {
    return null;
  }
}

// ---- Invoices -----------------------------------------------------------------------------------------

/** Where providers put payment details, in the order they are looked for. */
const PAYMENT_OBJECTS = ["payment", "payment_info", "payment_details", "payment_status", "blockchain"];
const TRANSACTION_LISTS = ["transactions", "txs", "payments", "blockchain_transactions", "transfers"];

function readTransaction(raw: unknown, index: number, prefix: string): { tx: Transaction; rest: ProviderField[] } | null {
  if (!isObject(raw)) return null;
  const r = new Reader(raw);
  const tx: Transaction = {
    tx_hash: toText(r.take("tx_hash", "txid", "tx_id", "hash", "transaction_hash", "transaction_id")),
    amount: toAmount(r.take("amount", "value", "crypto_amount")),
    confirmations: toInteger(r.take("confirmations", "confirmation_count")),
    block_height: toInteger(r.take("block_height", "block_number", "block", "height")),
    seen_at: toInstant(r.take("seen_at", "detected_at", "timestamp", "time", "created_at", "confirmed_at")),
    explorer_url: toHttpUrl(r.take("explorer_url", "explorer", "url", "link")),
  };
  return { tx, rest: r.rest(`${prefix}[${index}].`) };
}

function readPayment(invoice: Reader): { payment: Payment | null; rest: ProviderField[] } {
  const rest: ProviderField[] = [];
  // The first payment object found is read; fields at the top level fill what it lacks.
  const objectKey = PAYMENT_OBJECTS.find((key) => isObject(invoice.raw[key]));
  const inner = objectKey ? new Reader(invoice.raw[objectKey] as Obj) : null;
  if (objectKey) invoice.claim(objectKey);
  // `payment: null` says "no payment details", which the payment section already says.
  invoice.claim(...[...PAYMENT_OBJECTS, ...TRANSACTION_LISTS].filter((key) => invoice.raw[key] === null));
  const take = (...names: string[]) => inner?.take(...names) ?? invoice.take(...names);

  const payment: Payment = {
    address: toText(take("address", "payment_address", "wallet_address", "deposit_address", "pay_address")),
    network: toText(take("network", "chain", "blockchain_network")),
    amount_due: toAmount(take("amount_due", "due_amount", "expected_amount", "pay_amount")),
    amount_received: toAmount(take("amount_received", "received_amount", "amount_paid", "paid_amount", "actually_paid")),
    rate: toAmount(take("rate", "exchange_rate", "rate_eur")),
    paid_at: toInstant(take("paid_at", "payment_date", "completed_at")),
    confirmations: toInteger(take("confirmations", "confirmation_count")),
    confirmations_required: toInteger(take("confirmations_required", "required_confirmations", "min_confirmations")),
    transactions: [],
  };

  const listIn = (reader: Reader | null, prefix: string) => {
    const key = reader && TRANSACTION_LISTS.find((k) => Array.isArray(reader.raw[k]));
    if (!reader || !key) return;
    reader.claim(key);
    (reader.raw[key] as unknown[]).forEach((item, i) => {
      const read = readTransaction(item, i, `${prefix}${key}`);
      if (read) {
        payment.transactions.push(read.tx);
        rest.push(...read.rest);
      } else {
        rest.push({ key: `${prefix}${key}[${i}]`, value: item });
      }
    });
  };
  listIn(inner, `${objectKey}.`);
  if (payment.transactions.length === 0) listIn(invoice, "");
  // A lone transaction hash at the top of the payment details.
  const loneHash = toText(take("tx_hash", "txid", "transaction_hash"));
  if (payment.transactions.length === 0 && loneHash) {
    payment.transactions.push({
      tx_hash: loneHash,
      amount: payment.amount_received,
      confirmations: payment.confirmations,
      block_height: null,
      seen_at: payment.paid_at,
      explorer_url: null,
    });
  }
  if (inner) rest.unshift(...inner.rest(`${objectKey}.`));

  const known = Object.entries(payment).some(([key, value]) => (key === "transactions" ? payment.transactions.length > 0 : value !== null));
  return { payment: known ? payment : null, rest };
}

/** `priced_in` when it is one of the two the console knows; any other value stays among the provider's own fields. */
function toPricedIn(r: Reader): "fiat" | "crypto" | null {
  const value = r.raw.priced_in;
  if (value !== "fiat" && value !== "crypto" && value !== null) return null;
  r.claim("priced_in");
  return value;
}

/** One invoice in the console's shape; null when it has no id (nothing could link to it). */
export function normaliseInvoice(raw: unknown): Invoice | null {
  if (!isObject(raw)) return null;
  const r = new Reader(raw);
  const id = toText(r.take("invoice_id", "id", "uuid"));
  if (!id?.trim()) return null;
  const fiatCurrency = toText(r.take("fiat_currency"));
  const invoice: Omit<Invoice, "payment" | "provider_fields"> = {
    invoice_id: id,
    order_id: toText(r.take("order_id")),
    order_name: toText(r.take("order_name")),
    status: toText(r.take("status")),
    fiat_amount: toAmount(r.take("fiat_amount")),
    // The spec knows only EUR.
    fiat_currency: fiatCurrency && /^[A-Za-z]{3}$/.test(fiatCurrency) ? fiatCurrency.toUpperCase() : "EUR",
    crypto_amount: toAmount(r.take("crypto_amount")),
    currency: toText(r.take("currency")),
    allowed_error_percent: toNumber(r.take("allowed_error_percent")),
    callback_url: toText(r.take("callback_url")),
    created_at: toInstant(r.take("created_at")),
    updated_at: toInstant(r.take("updated_at")),
    expires_at: toInstant(r.take("expires_at", "expiration_date", "expiry")),
    priced_in: toPricedIn(r),
  };
  const { payment, rest } = readPayment(r);
  return { ...invoice, payment, provider_fields: [...r.rest(), ...rest] };
}

export function readPagination(raw: unknown, count: number): Pagination {
  const p = isObject(raw) ? raw : {};
  const pageSize = toInteger(p.page_size ?? p.per_page ?? p.limit) ?? Math.max(count, 1);
  const current = toInteger(p.current_page ?? p.page) ?? 1;
  const totalRecords = toInteger(p.total_records ?? p.total ?? p.total_count) ?? (current - 1) * pageSize + count;
  const totalPages = toInteger(p.total_pages ?? p.pages) ?? Math.max(1, Math.ceil(totalRecords / pageSize));
  const flag = (value: unknown, fallback: boolean) =>
    typeof value === "boolean" ? value : value === "true" ? true : value === "false" ? false : fallback;
  return {
    current_page: current,
    page_size: pageSize,
    total_pages: totalPages,
    total_records: totalRecords,
    has_next: flag(p.has_next, current < totalPages),
    has_previous: flag(p.has_previous, current > 1),
  };
}

/**
 * A page of invoices. An item without an id cannot be shown as a row and is left out (and counted in
 * `skipped`); every other odd value only blanks its own cell.
 */
export function normaliseInvoiceList(raw: unknown): (InvoiceList & { skipped: number }) | null {
  if (!isObject(raw)) return null;
  const items = [raw.items, raw.data, raw.invoices, raw.results].find(Array.isArray) as unknown[] | undefined;
  if (!items) return null;
  const invoices = items.map(normaliseInvoice);
  const kept = invoices.filter((i): i is Invoice => i !== null);
  return {
    items: kept,
    pagination: readPagination(raw.pagination ?? raw.meta ?? raw, items.length),
    skipped: invoices.length - kept.length,
  };
}

// ---- Webhooks -----------------------------------------------------------------------------------------

/**
 * POST /webhooks/simulate's answer: "an object with string fields status and message" (spec §4.4). A
 * provider that says less still sent it: its 2xx is the news.
 */
export function normaliseSimulationResult(raw: unknown): WebhookSimulationResult | null {
  if (!isObject(raw)) return null;
  return {
    status: toText(raw.status) ?? "sent",
    message: toText(raw.message) ?? toText(raw.detail) ?? "The invoicing API reports the webhook as sent.",
  };
}
