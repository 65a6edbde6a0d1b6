import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/lib/platform/db";
import { getSandboxDb } from "@/lib/sandbox";
import { MARKET_CURRENCIES, MARKET_WAVES, marketMinute, marketRateUnits } from "./market";
import { marketMinuteSql, marketRateUnitsSql, rateFromUnitsSql } from "./market-sql";

/*
 * The market's SQL twin gives exactly the TypeScript market's rate, digit for digit, on thousands of
 * (currency, minute) pairs across a century. Runs on PGlite, and on PostgreSQL with DATABASE_URL.
 */

let db: Db;
beforeAll(async () => {
  db = await getSandboxDb();
});

const rowsOf = async <T>(query: ReturnType<typeof sql>) => ((await db.execute(query)) as unknown as { rows: T[] }).rows;

const catalog = sql.join(
  MARKET_CURRENCIES.map(
    (c) =>
      sql`(${c.code}, ${c.salt.toString()}::bigint, ${c.referenceUnits.toString()}::numeric, ${c.volatilityPerMille.toString()}::bigint)`,
  ),
  sql`, `,
);

async function sqlRates(minutes: bigint[]): Promise<Map<string, string>> {
  const units = marketRateUnitsSql(
    { salt: sql`c.salt`, referenceUnits: sql`c.reference_units`, volatilityPerMille: sql`c.volatility_milli` },
    sql`m.minute`,
  );
  const rows = await rowsOf<{ code: string; minute: string; units: string; rate: string }>(sql`
    select c.code, m.minute::text as minute, (${units})::text as units, (${rateFromUnitsSql(units)})::text as rate
    from (values ${catalog}) as c (code, salt, reference_units, volatility_milli)
    cross join unnest(${`{${minutes.join(",")}}`}::bigint[]) as m (minute)
  `);
  return new Map(rows.map((r) => [`${r.code}@${r.minute}`, `${r.units} ${r.rate}`]));
}

/** Minutes from 2000 to 2100 at a stride that is no wave's multiple, plus each wave's turning points, plus some before 1970. */
function minutesToCompare(): bigint[] {
  const from = marketMinute(new Date("2000-01-01T00:00:00Z"));
  const to = marketMinute(new Date("2100-01-01T00:00:00Z"));
  const minutes: bigint[] = [];
  for (let m = from; m < to; m += (to - from) / 700n + 13n) minutes.push(m);
  for (const w of MARKET_WAVES) {
    const turn = (marketMinute(new Date("2025-06-01T00:00:00Z")) / w.period) * w.period;
    for (const k of [0n, 1n, 2n]) minutes.push(turn + k * w.period, turn + k * w.period + w.period / 2n, turn + k * w.period - 1n);
  }
  minutes.push(0n, 1n, -1n, -59n, -1_000_003n);
  return [...new Set(minutes)];
}

describe("the market's SQL twin", () => {
  it("gives the TypeScript market's rate exactly for thousands of (currency, minute) pairs across a century", async () => {
    const minutes = minutesToCompare();
    const fromSql = await sqlRates(minutes);
    expect(fromSql.size).toBe(minutes.length * MARKET_CURRENCIES.length);
    expect(fromSql.size).toBeGreaterThan(5_000);
    let compared = 0;
    for (const c of MARKET_CURRENCIES) {
      for (const minute of minutes) {
        const units = marketRateUnits(c, minute);
        const rate = `${units / 100_000_000n}.${(units % 100_000_000n).toString().padStart(8, "0")}`;
        expect(fromSql.get(`${c.code}@${minute}`), `${c.code} at minute ${minute}`).toBe(`${units} ${rate}`);
        compared++;
      }
    }
    expect(compared).toBe(fromSql.size);
  });

  it("finds the same minute as marketMinute for instants at and around minute boundaries", async () => {
    const instants = [
      "2025-03-01T00:00:00.000Z",
      "2025-03-01T00:00:59.999Z",
      "2025-03-01T00:01:00.000Z",
      "2000-01-01T00:00:00.000Z",
      "2026-11-23T14:05:10.123Z",
      "1969-12-31T23:59:59.999Z",
      "1969-12-31T23:59:00.000Z",
    ];
    const rows = await rowsOf<{ at: string; minute: string }>(sql`
      select x.at, (${marketMinuteSql(sql`x.at::timestamptz`)})::text as minute from unnest(${`{${instants.join(",")}}`}::text[]) as x (at)
    `);
    expect(Object.fromEntries(rows.map((r) => [r.at, r.minute]))).toEqual(
      Object.fromEntries(instants.map((at) => [at, marketMinute(new Date(at)).toString()])),
    );
    // A microsecond before a minute is still the minute before (the column may hold microseconds).
    const [edge] = await rowsOf<{ minute: string }>(
      sql`select (${marketMinuteSql(sql`'2025-03-01T00:00:59.999999Z'::timestamptz`)})::text as minute`,
    );
    expect(edge.minute).toBe(marketMinute(new Date("2025-03-01T00:00:59Z")).toString());
  });
});
