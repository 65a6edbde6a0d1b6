import "server-only";
import { Big } from "@/lib/contract/money-json";
import { SANDBOX_CURRENCIES, type SandboxCurrency } from "./currencies";

/*
 * The sandbox's simulated market: EUR per one unit of every sandbox currency (docs/sandbox.md, "Rates"). No live prices
 * are fetched. Each rate wanders around its currency's reference level — slow swings of weeks, faster ones of
 * hours and a small jitter a minute — scaled by the currency's volatility, so stablecoins barely move and DOGE
 * moves a lot. A rate is a pure function of the UTC minute: every instance of the sandbox quotes the same rate
 * in the same minute, and the rate moves from one minute to the next.
 *
 * Exact: integers only, no floating point. With m the minute since the epoch, every wave is a
 * triangle of the minute's phase and the jitter an integer hash of the minute, and
 *
 *   rate = reference × (1 + volatility × (0.7·tri(8 weeks) + 0.3·tri(3 weeks) + 0.04·tri(8 h) + 0.02·tri(3 h)
 *                                        + 0.004·jitter)), rounded half up to 8 places,
 *
 * each tri a triangle wave in [-1, 1] of the minute (its phase shifted per currency) and jitter in [-1, 1],
 * worked out in units of 1e-8 EUR with a single division at the end. lib/sandbox/market-sql.ts is its twin in
 * SQL (the seed prices its invoices with it), with the same constants from here; market-sql.test.ts checks that
 * both agree on every digit.
 */

/** A rate's places: the rate column's scale (numeric(24, 8)). */
export const RATE_PLACES = 8;
export const RATE_UNIT = 10n ** BigInt(RATE_PLACES);

/** The common period every wave's period divides: a swing is counted in 1/SWING_SCALE of its amplitude. */
export const SWING_SCALE = 241_920n;
/** Weights are per mille of the volatility: the waves' and the jitter's add up to 1,064 ‰ at most. */
export const WEIGHT_SCALE = 1_000n;
/** The volatility is counted per mille too. */
export const VOLATILITY_SCALE = 1_000n;

/** The triangle waves: period in minutes (each divides SWING_SCALE), weight ‰, the phase step per currency. */
export const MARKET_WAVES = [
  { period: 80_640n, weight: 700n, phaseStep: 17_011n }, // 8 weeks
  { period: 30_240n, weight: 300n, phaseStep: 9_973n }, // 3 weeks
  { period: 480n, weight: 40n, phaseStep: 131n }, // 8 hours
  { period: 180n, weight: 20n, phaseStep: 67n }, // 3 hours
] as const;

/** The per-minute jitter: weight ‰ and the hash's constants (a prime modulus; every product fits 63 bits). */
export const MARKET_JITTER = { weight: 4n, modulus: 2_147_483_647n, minuteFactor: 1_103_515_245n, saltFactor: 40_503n } as const;

/** What the market needs of a currency, as integers: its salt, its reference in 1e-8 EUR and its volatility ‰. */
export type MarketCurrency = { code: string; salt: bigint; referenceUnits: bigint; volatilityPerMille: bigint };

/** A configured decimal (0.146, 0.22) as an exact integer multiple of 1/scale; a finer one is a mistake in the table. */
function scaled(value: number, scale: bigint, what: string): bigint {
  const product = new Big(String(value)).times(scale.toString());
  if (!product.eq(product.round(0))) throw new Error(`${what} ${value} is finer than 1/${scale}`);
  return BigInt(product.toFixed(0));
}

export const MARKET_CURRENCIES: readonly MarketCurrency[] = SANDBOX_CURRENCIES.map((c: SandboxCurrency, index) => ({
  code: c.code,
  salt: BigInt(index + 1),
  referenceUnits: scaled(c.referencePriceEur, RATE_UNIT, `${c.code}'s reference price`),
  volatilityPerMille: scaled(c.sim.volatility, VOLATILITY_SCALE, `${c.code}'s volatility`),
}));

const MINUTE_MS = 60_000;

/** The UTC minute an instant falls in, as minutes since the epoch. */
export function marketMinute(at: Date): bigint {
  return BigInt(Math.floor(at.getTime() / MINUTE_MS));
}

/** The start of the UTC minute of `at`. */
export function marketMinuteStart(at: Date): Date {
  return new Date(Number(marketMinute(at)) * MINUTE_MS);
}

/** `x mod n` in [0, n), also for a negative x (as the SQL twin writes it). */
export const mod = (x: bigint, n: bigint): bigint => ((x % n) + n) % n;

/** A triangle wave in [-period, period]: +period at phase 0, -period half a period later. */
function triangle(minute: bigint, salt: bigint, wave: (typeof MARKET_WAVES)[number]): bigint {
  const phase = mod(minute + salt * wave.phaseStep, wave.period);
  const distance = 2n * phase - wave.period;
  return (distance < 0n ? -distance : distance) * 2n - wave.period;
}

/** An integer in [-SWING_SCALE, SWING_SCALE] from the minute and the salt: the same inputs, the same jitter. */
function jitter(minute: bigint, salt: bigint): bigint {
  const { modulus, minuteFactor, saltFactor } = MARKET_JITTER;
  const h1 = mod(minute * minuteFactor + salt * saltFactor, modulus);
  const h2 = mod(h1 * h1 + minute, modulus);
  const h3 = mod(h2 * h2 + h1, modulus);
  return mod(h3, 2n * SWING_SCALE + 1n) - SWING_SCALE;
}

/** The swing off the reference, in 1/(WEIGHT_SCALE × SWING_SCALE) of the volatility: at most ±1,064 ‰ of it. */
export function marketSwing(currency: MarketCurrency, minute: bigint): bigint {
  let swing = MARKET_JITTER.weight * jitter(minute, currency.salt);
  for (const wave of MARKET_WAVES) swing += wave.weight * triangle(minute, currency.salt, wave) * (SWING_SCALE / wave.period);
  return swing;
}

/** The rate in units of 1e-8 EUR: reference × (1 + volatility × swing), one division, rounded half up. */
export function marketRateUnits(currency: MarketCurrency, minute: bigint): bigint {
  const denominator = VOLATILITY_SCALE * WEIGHT_SCALE * SWING_SCALE;
  const numerator = currency.referenceUnits * (denominator + currency.volatilityPerMille * marketSwing(currency, minute));
  return (2n * numerator + denominator) / (2n * denominator);
}

/** Units of 1e-8 as a canonical decimal: 6123456789012n → "61234.56789012", 92000000n → "0.92". */
export function rateFromUnits(units: bigint): string {
  const digits = units.toString().padStart(RATE_PLACES + 1, "0");
  const whole = digits.slice(0, -RATE_PLACES);
  const fraction = digits.slice(-RATE_PLACES).replace(/0+$/, "");
  return fraction ? `${whole}.${fraction}` : whole;
}

/** Every sandbox currency's rate in EUR during the UTC minute of `at`, as decimal strings. */
export function marketRates(at: Date = new Date()): Record<string, string> {
  const minute = marketMinute(at);
  return Object.fromEntries(MARKET_CURRENCIES.map((c) => [c.code, rateFromUnits(marketRateUnits(c, minute))]));
}

/** One currency's rate in EUR during the UTC minute of `at`, or undefined for a code the sandbox lacks. */
export function marketRate(code: string, at: Date = new Date()): string | undefined {
  const currency = MARKET_CURRENCIES.find((c) => c.code === code.toUpperCase());
  return currency ? rateFromUnits(marketRateUnits(currency, marketMinute(at))) : undefined;
}
