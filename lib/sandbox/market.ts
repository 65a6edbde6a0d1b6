import "server-only";
import { SANDBOX_CURRENCIES } from "./currencies";

/*
 * The sandbox's simulated market: EUR per one unit of every sandbox currency. No live prices are fetched.
 * Each rate wanders around its currency's reference level — slow swings of weeks, faster ones of hours and a
 * small jitter a minute — scaled by the currency's volatility, so stablecoins barely move and DOGE moves a
 * lot. A rate is a pure function of the UTC minute: every instance of the sandbox quotes the same rate in the
 * same minute, and the rate moves from one minute to the next.
 */

const MINUTE_MS = 60_000;

/** The UTC minute an instant falls in, as minutes since the epoch. */
export function marketMinute(at: Date): number {
  return Math.floor(at.getTime() / MINUTE_MS);
}

/** A number in [-1, 1) from a minute and a salt: the same inputs always give the same number. */
function jitter(minute: number, salt: number): number {
  let h = (Math.imul(minute | 0, 0x9e3779b1) ^ Math.imul(salt, 0x85ebca6b)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d) >>> 0;
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b) >>> 0;
  return ((h ^ (h >>> 16)) >>> 0) / 2 ** 31 - 1;
}

function rateAt(currency: (typeof SANDBOX_CURRENCIES)[number], index: number, minute: number): number {
  const v = currency.sim.volatility;
  const days = minute / 1_440;
  // The same slow swing the seeded history uses (lib/sandbox/seed.ts), so today's rate continues it.
  const slow = v * Math.sin((minute * 60) / 86_400 / 47);
  const hours = 0.04 * v * Math.sin(days * 2 * Math.PI * 3.1 + index * 1.7) + 0.02 * v * Math.sin(days * 2 * Math.PI * 11.3 + index);
  const tick = 0.004 * v * jitter(minute, index + 1);
  const rate = currency.referencePriceEur * (1 + slow) * (1 + hours + tick);
  return Number(rate.toPrecision(10));
}

/** Every sandbox currency's rate in EUR during the UTC minute of `at`. */
export function marketRates(at: Date = new Date()): Record<string, number> {
  const minute = marketMinute(at);
  return Object.fromEntries(SANDBOX_CURRENCIES.map((c, i) => [c.code, rateAt(c, i, minute)]));
}

/** One currency's rate in EUR during the UTC minute of `at`, or undefined for a code the sandbox lacks. */
export function marketRate(code: string, at: Date = new Date()): number | undefined {
  const index = SANDBOX_CURRENCIES.findIndex((c) => c.code === code.toUpperCase());
  return index < 0 ? undefined : rateAt(SANDBOX_CURRENCIES[index], index, marketMinute(at));
}
