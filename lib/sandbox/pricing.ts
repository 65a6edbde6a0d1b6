import "server-only";
import { type SQL, sql } from "drizzle-orm";
import { Big, roundDecimal } from "@/lib/contract/money-json";
import { RATE_PLACES } from "./market";

/*
 * The sandbox's one pricing rule (docs/sandbox.md, "Archived invoices: POST /archived"): an invoice priced in one amount
 * at a rate gets the other
 *   - EUR: crypto × rate, rounded half up to the cent;
 *   - crypto: EUR ÷ rate, rounded half up to the currency's quote decimals, min(decimals, 8) — what the seed
 *     and real processors quote (a crypto amount that is given keeps up to the currency's full decimals).
 * POST /archived applies it in TypeScript (big.js), the seed in SQL (`deriveCryptoSql`, integer `div`); the
 * seed's tests re-archive seeded invoices and get the same digits.
 */

/** The places a derived crypto amount is quoted to: the currency's decimals, at most 8 (ETH 8, SOL 8, USDT 6). */
export const QUOTE_DECIMALS_MAX = 8;
export const quoteDecimals = (currency: { decimals: number }): number => Math.min(currency.decimals, QUOTE_DECIMALS_MAX);

/** Digits a quotient is worked out to (cut, not rounded) before it is rounded once: far past every place kept. */
const QUOTIENT_PLACES = 60;

/** EUR ÷ rate rounded half up to `places`, exactly: the quotient is cut far past them, then rounded once. */
export function deriveCrypto(fiat: string, rate: string, places: number): string {
  const Exact = Big();
  Exact.DP = QUOTIENT_PLACES;
  Exact.RM = Big.roundDown;
  return roundDecimal(new Big(new Exact(fiat).div(rate).toFixed()), places);
}

/** crypto × rate rounded half up to the cent. */
export function deriveFiat(crypto: string, rate: string): string {
  return roundDecimal(new Big(crypto).times(rate), 2);
}

/**
 * `deriveCrypto` in SQL, from the rate in units of 1e-8 EUR (R): with F the EUR in cents and q the places,
 * crypto in units of 10^-q is ⌊(2·F·10^(6+q) + R) / 2R⌋ — half up, one integer division — and is then written
 * with q places by a product. `quoteUnit` is 10^q and `quoteStep` 10^-q (numeric), from the caller's catalog.
 */
export function deriveCryptoSql(fiat: SQL, rateUnits: SQL, quote: { unit: SQL; step: SQL }): SQL {
  const scale = sql.raw(`${10n ** BigInt(RATE_PLACES - 2)}::numeric`);
  const units = sql`div(2 * (${fiat})::numeric * 100 * ${scale} * ${quote.unit} + ${rateUnits}, 2 * (${rateUnits})::numeric)`;
  return sql`(${units} * ${quote.step})`;
}
