import { describe, expect, it } from "vitest";
import { SANDBOX_CURRENCIES } from "./currencies";
import { marketRate, marketRates } from "./market";

const AT = new Date("2026-11-23T14:05:10Z");

describe("the sandbox's simulated market", () => {
  it("quotes every sandbox currency in EUR, near its reference level", () => {
    const rates = marketRates(AT);
    expect(Object.keys(rates).sort()).toEqual(SANDBOX_CURRENCIES.map((c) => c.code).sort());
    for (const c of SANDBOX_CURRENCIES) {
      expect(rates[c.code]).toBeGreaterThan(c.referencePriceEur * (1 - c.sim.volatility * 1.2));
      expect(rates[c.code]).toBeLessThan(c.referencePriceEur * (1 + c.sim.volatility * 1.2));
    }
  });

  it("is the same throughout one UTC minute and moves from one minute to the next", () => {
    expect(marketRates(new Date("2026-11-23T14:05:59.999Z"))).toEqual(marketRates(AT));
    const next = marketRates(new Date("2026-11-23T14:06:00Z"));
    expect(next.BTC).not.toBe(marketRates(AT).BTC);
    expect(Math.abs(next.BTC / marketRates(AT).BTC - 1)).toBeLessThan(0.01);
  });

  it("answers one currency by code, in any case, and nothing for an unknown one", () => {
    expect(marketRate("btc", AT)).toBe(marketRates(AT).BTC);
    expect(marketRate("XYZ", AT)).toBeUndefined();
  });
});

describe("the seeded invoices and the market", () => {
  it("priced every seeded invoice near the market's rate of its creation minute (within the market's hourly swings)", async () => {
    const { and, eq, isNotNull } = await import("drizzle-orm");
    const { invoices } = await import("@/lib/db/schema");
    const { getSandboxDb } = await import("@/lib/sandbox");
    const { DEMO_MERCHANT_ID } = await import("./keys");
    const db = await getSandboxDb();
    const rows = await db
      .select({ currency: invoices.currency, rate: invoices.rate, createdAt: invoices.createdAt })
      .from(invoices)
      .where(and(eq(invoices.merchantId, DEMO_MERCHANT_ID), isNotNull(invoices.rate)))
      .limit(2_000);
    expect(rows.length).toBeGreaterThan(100);
    for (const row of rows) {
      const market = marketRate(row.currency, row.createdAt)!;
      const volatility = SANDBOX_CURRENCIES.find((c) => c.code === row.currency)!.sim.volatility;
      // The market swings up to ±6.4 % × volatility within a day; the seed's own noise is ±2.5 % × volatility.
      expect(Math.abs(Number(row.rate!) / market - 1), `${row.currency} at ${row.createdAt.toISOString()}`).toBeLessThanOrEqual(0.1 * volatility);
    }
  });
});
