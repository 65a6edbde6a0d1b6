import { sql } from "drizzle-orm";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { canonicalDecimal } from "@/lib/contract/money-json";
import type { Db } from "@/lib/platform/db";
import { getSandboxDb } from "@/lib/sandbox";
import { SANDBOX_CURRENCIES } from "./currencies";
import { deriveCrypto, deriveCryptoSql, deriveFiat, quoteDecimals } from "./pricing";

/* The one pricing rule, in TypeScript and in SQL: the same digits, ties rounded half up. */

let db: Db;
beforeAll(async () => {
  db = await getSandboxDb();
});

/** deriveCryptoSql on many (EUR, rate in 1e-8 units, places) at once. */
async function inSql(cases: { fiat: string; rateUnits: bigint; places: number }[]): Promise<string[]> {
  const values = sql.join(
    cases.map(
      (c, i) =>
        sql`(${i}::int, ${c.fiat}::numeric, ${c.rateUnits.toString()}::bigint, ${(10n ** BigInt(c.places)).toString()}::numeric, ${c.places ? `0.${"0".repeat(c.places - 1)}1` : "1"}::numeric)`,
    ),
    sql`, `,
  );
  const result = (await db.execute(sql`
    select (${deriveCryptoSql(sql`v.fiat`, sql`v.rate_units`, { unit: sql`v.unit`, step: sql`v.step` })})::text as crypto
    from (values ${values}) as v (i, fiat, rate_units, unit, step) order by v.i
  `)) as unknown as { rows: { crypto: string }[] };
  return result.rows.map((r) => canonicalDecimal(r.crypto));
}

const rateOf = (units: bigint) => `${units / 100_000_000n}.${(units % 100_000_000n).toString().padStart(8, "0")}`;

describe("the sandbox's pricing rule", () => {
  it("quotes crypto to the currency's decimals, at most 8", () => {
    expect(Object.fromEntries(SANDBOX_CURRENCIES.map((c) => [c.code, quoteDecimals(c)]))).toEqual({
      BTC: 8,
      ETH: 8,
      USDT: 6,
      USDC: 6,
      LTC: 8,
      SOL: 8,
      DOGE: 8,
    });
  });

  it("rounds a tie half up, in TypeScript and in SQL", async () => {
    // 0.01 EUR at 2,000,000 EUR is 0.000000005, a tie at 8 places; at 2,000 EUR 0.000005, a tie at 5.
    const cases = [
      { fiat: "0.01", rateUnits: 200_000_000_000_000n, places: 8, expected: "0.00000001" },
      { fiat: "0.01", rateUnits: 200_000_000_000n, places: 5, expected: "0.00001" },
      { fiat: "0.03", rateUnits: 200_000_000_000_000n, places: 8, expected: "0.00000002" },
      { fiat: "10", rateUnits: 300_000_000n, places: 8, expected: "3.33333333" },
      { fiat: "20", rateUnits: 300_000_000n, places: 8, expected: "6.66666667" },
      { fiat: "0", rateUnits: 300_000_000n, places: 8, expected: "0" },
    ];
    for (const c of cases)
      expect(deriveCrypto(c.fiat, rateOf(c.rateUnits), c.places), `${c.fiat} / ${rateOf(c.rateUnits)}`).toBe(c.expected);
    expect(await inSql(cases)).toEqual(cases.map((c) => c.expected));
  });

  it("gives the same crypto amount in SQL as in TypeScript for any EUR amount and rate (property)", async () => {
    const caseArb = fc.record({
      cents: fc.bigInt({ min: 0n, max: 10n ** 15n }),
      rateUnits: fc.oneof(fc.bigInt({ min: 1n, max: 10n ** 9n }), fc.bigInt({ min: 1n, max: 10n ** 14n })),
      places: fc.constantFrom(...SANDBOX_CURRENCIES.map(quoteDecimals)),
    });
    const cases = fc
      .sample(caseArb, { numRuns: 2_000, seed: 22 })
      .map((c) => ({ fiat: canonicalDecimal(rateOf(c.cents * 1_000_000n)), rateUnits: c.rateUnits, places: c.places }));
    const fromSql = await inSql(cases);
    cases.forEach((c, i) =>
      expect(fromSql[i], JSON.stringify({ ...c, rateUnits: c.rateUnits.toString() })).toBe(
        deriveCrypto(c.fiat, rateOf(c.rateUnits), c.places),
      ),
    );
  });

  it("derives EUR to the cent, half up", () => {
    expect(deriveFiat("0.5", "3449.48594524")).toBe("1724.74");
    expect(deriveFiat("1", "0.005")).toBe("0.01");
    expect(deriveFiat("0.123456789012345678", "70505.59472801")).toBe("8704.39");
  });
});
