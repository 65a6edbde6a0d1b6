import "server-only";
import type { Currency, CurrencyList } from "@/lib/contract";
import { isObject, toInteger, toText } from "./normalise";

// GET /currencies as a provider may answer it (a list, a wrapper, an object keyed by code), read into the
// console's one shape, as ./normalise.ts reads invoices.

const CURRENCY_WRAPPERS = ["currencies", "data", "items", "results"];
/** Keys of an envelope, never currency codes. */
export const NOT_CODES = new Set([
  ...CURRENCY_WRAPPERS,
  "meta",
  "pagination",
  "status",
  "message",
  "error",
  "errors",
  "count",
  "total",
  "links",
]);

function readCurrency(raw: unknown, keyedCode?: string): Currency | null {
  if (typeof raw === "string") {
    // ["BTC", …], or {"BTC": "Bitcoin"} keyed by code.
    return keyedCode
      ? { code: keyedCode, name: raw || keyedCode, network: null, decimals: null }
      : raw.trim()
        ? { code: raw.trim(), name: raw.trim(), network: null, decimals: null }
        : null;
  }
  if (keyedCode && raw === true) return { code: keyedCode, name: keyedCode, network: null, decimals: null };
  if (!isObject(raw)) return null;
  const code = keyedCode ?? toText(raw.code ?? raw.symbol ?? raw.ticker ?? raw.currency ?? raw.id);
  if (!code?.trim()) return null;
  return {
    code: code.trim(),
    name: toText(raw.name ?? raw.title ?? raw.display_name) || code.trim(),
    network: toText(raw.network ?? raw.chain ?? raw.blockchain),
    decimals: toInteger(raw.decimals ?? raw.precision),
  };
}

/**
 * The supported currencies in any reasonable shape (spec §4.7 shows none): a list of codes, a list of
 * objects with a code, an object keyed by code, or any of those wrapped in currencies / data / items.
 * Null when it is none of them.
 */
export function normaliseCurrencies(raw: unknown, depth = 0): CurrencyList | null {
  if (Array.isArray(raw)) {
    const currencies = raw.map((item) => readCurrency(item)).filter((c): c is Currency => c !== null);
    return currencies.length || raw.length === 0 ? { currencies: dedupe(currencies) } : null;
  }
  if (!isObject(raw)) return null;
  const wrapper = CURRENCY_WRAPPERS.find((key) => key in raw && (Array.isArray(raw[key]) || isObject(raw[key])));
  if (wrapper && depth < 2) return normaliseCurrencies(raw[wrapper], depth + 1);
  // Keyed by code: keys that look like codes, values that describe one (an object, a name, or just true).
  const entries = Object.entries(raw).filter(
    ([key, value]) =>
      /^[A-Za-z0-9][A-Za-z0-9._-]{0,19}$/.test(key) &&
      !NOT_CODES.has(key.toLowerCase()) &&
      (isObject(value) || typeof value === "string" || value === true),
  );
  const currencies = entries.map(([code, value]) => readCurrency(value, code)).filter((c): c is Currency => c !== null);
  return currencies.length ? { currencies: dedupe(currencies) } : null;
}

function dedupe(currencies: Currency[]): Currency[] {
  const seen = new Set<string>();
  return currencies.filter((c) => !seen.has(c.code) && seen.add(c.code));
}
