import "server-only";
import type { Decimal, HistoricalRates, Rates } from "@/lib/contract";
import { isObject, toAmount, toInstant, toText } from "./normalise";
import { NOT_CODES } from "./normalise-currencies";

// GET /rates as a provider may answer it (code → value, a list of pairs, a wrapper), read into the console's
// one shape, as ./normalise.ts reads invoices.

const RATE_WRAPPERS = ["rates", "data", "items", "results", "prices", "quotes"];
const RATE_VALUE_NAMES = ["rate", "eur", "EUR", "price", "value", "price_eur", "rate_eur"];
const RATE_CODE_NAMES = ["code", "currency", "symbol", "asset", "ticker", "crypto"];
const CODE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,19}$/;

/** A rate: a positive decimal (number literal or numeric string), or an object holding one under a usual name. */
function readRate(value: unknown): Decimal | null {
  if (isObject(value)) {
    for (const name of RATE_VALUE_NAMES) if (name in value) return readRate(value[name]);
    return null;
  }
  const rate = toAmount(value);
  return rate !== null && !rate.startsWith("-") && /[1-9]/.test(rate) ? rate : null;
}

/**
 * GET /rates (spec §4.6: "an object with a rates member") in any reasonable shape: `{rates: {BTC: 61234.5}}`,
 * the same wrapped in data, a bare object keyed by code, a list of `{code, rate}` (or currency / symbol with
 * rate / price / value / eur), and numbers as strings. Codes are upper-cased; entries that are not a
 * positive number are left out. Null when no rate at all can be read.
 */
export function normaliseRates(raw: unknown, depth = 0): Rates | null {
  const rates: Record<string, Decimal> = {};
  if (Array.isArray(raw)) {
    for (const item of raw) {
      if (!isObject(item)) continue;
      const code = RATE_CODE_NAMES.map((name) => toText(item[name])).find((c) => c !== null && CODE.test(c));
      const rate = readRate(item);
      if (code && rate !== null) rates[code.toUpperCase()] ??= rate;
    }
  } else if (isObject(raw)) {
    const wrapper = RATE_WRAPPERS.find((key) => key in raw && (Array.isArray(raw[key]) || isObject(raw[key])));
    if (wrapper && depth < 3) return normaliseRates(raw[wrapper], depth + 1);
    for (const [key, value] of Object.entries(raw)) {
      if (!CODE.test(key) || NOT_CODES.has(key.toLowerCase())) continue;
      const rate = readRate(value);
      if (rate !== null) rates[key.toUpperCase()] ??= rate;
    }
  }
  return Object.keys(rates).length ? { rates } : null;
}

/**
 * GET /rates?at=…'s answer: the rates as `normaliseRates` reads them, and the instant the provider says they
 * are of (`at`, top level), or null when it says none: then they are its current rates.
 */
export function normaliseHistoricalRates(raw: unknown): HistoricalRates | null {
  const read = normaliseRates(raw);
  if (!read) return null;
  return { rates: read.rates, at: isObject(raw) ? toInstant(raw.at) : null };
}
