import "server-only";
import { type SQL, sql } from "drizzle-orm";
import { MARKET_JITTER, MARKET_WAVES, RATE_PLACES, SWING_SCALE, VOLATILITY_SCALE, WEIGHT_SCALE } from "./market";

/*
 * The simulated market's twin in SQL (lib/sandbox/market.ts has the formula and its constants): the same
 * integers, so the seed prices a million invoices set-based at exactly the rate `marketRate` quotes for their
 * minute. Hash and waves are bigint (every product stays below 2^63 for minutes below 2^31, i.e. before the
 * year 6053); the final product can pass 2^63, so it is numeric, divided once with `div` (an integer
 * quotient: numeric `/` would round on its own).
 * market-sql.test.ts checks both agree on every digit.
 */

const int = (n: bigint) => sql.raw(`${n}::bigint`);
const mod = (x: SQL, n: bigint) => sql`(((${x}) % ${int(n)} + ${int(n)}) % ${int(n)})`;

/** The UTC minute of a timestamptz as minutes since the epoch (floored, as `marketMinute`). */
export function marketMinuteSql(instant: SQL): SQL {
  const seconds = sql`floor(extract(epoch from ${instant}))::bigint`;
  return sql`((${seconds} - ${mod(seconds, 60n)}) / 60)`;
}

/** What the SQL twin reads of a currency: bigint expressions for its salt and volatility ‰, numeric for its reference in 1e-8 EUR. */
export type MarketCurrencySql = { salt: SQL; referenceUnits: SQL; volatilityPerMille: SQL };

function swingSql(minute: SQL, salt: SQL): SQL {
  const { modulus, minuteFactor, saltFactor, weight } = MARKET_JITTER;
  const h1 = mod(sql`${minute} * ${int(minuteFactor)} + ${salt} * ${int(saltFactor)}`, modulus);
  const h2 = mod(sql`${h1} * ${h1} + ${minute}`, modulus);
  const h3 = mod(sql`${h2} * ${h2} + ${h1}`, modulus);
  const jitter = sql`(${mod(h3, 2n * SWING_SCALE + 1n)} - ${int(SWING_SCALE)})`;
  const waves = MARKET_WAVES.map((w) => {
    const phase = mod(sql`${minute} + ${salt} * ${int(w.phaseStep)}`, w.period);
    return sql`${int(w.weight * (SWING_SCALE / w.period))} * (abs(2 * ${phase} - ${int(w.period)}) * 2 - ${int(w.period)})`;
  });
  return sql`(${int(weight)} * ${jitter} + ${sql.join(waves, sql` + `)})`;
}

/** The market's rate in units of 1e-8 EUR (a bigint) for the minute `minute` (bigint): `marketRateUnits` in SQL. */
export function marketRateUnitsSql(currency: MarketCurrencySql, minute: SQL): SQL {
  const denominator = VOLATILITY_SCALE * WEIGHT_SCALE * SWING_SCALE;
  const numerator = sql`(${currency.referenceUnits})::numeric * (${int(denominator)} + ${currency.volatilityPerMille} * ${swingSql(minute, currency.salt)})`;
  return sql`div(2 * ${numerator} + ${int(denominator)}, ${int(2n * denominator)})::bigint`;
}

/** Units of 1e-8 EUR as the rate (numeric with 8 places), exactly: a product, never a division. */
export function rateFromUnitsSql(units: SQL): SQL {
  return sql`(${units} * ${sql.raw(`0.${"0".repeat(RATE_PLACES - 1)}1`)})`;
}
