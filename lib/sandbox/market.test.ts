import { describe, expect, it } from "vitest";
import { Big } from "@/lib/contract/money-json";
import { SANDBOX_CURRENCIES } from "./currencies";
import { MARKET_CURRENCIES, marketMinute, marketMinuteStart, marketRate, marketRates, marketRateUnits, rateFromUnits } from "./market";

const AT = new Date("2026-11-23T14:05:10Z");
const rel = (a: string, b: string) => new Big(a).div(b).minus(1).abs();

describe("the sandbox's simulated market", () => {
  it("quotes every sandbox currency in EUR as a decimal string of at most 8 places", () => {
    const rates = marketRates(AT);
    expect(Object.keys(rates).sort()).toEqual(SANDBOX_CURRENCIES.map((c) => c.code).sort());
    for (const rate of Object.values(rates)) expect(rate).toMatch(/^(0|[1-9]\d*)(\.\d{0,7}[1-9])?$/);
  });

  it("stays positive and within its currency's volatility (at most 1.064 × it) over years of minutes", () => {
    const start = marketMinute(new Date("2000-01-01T00:00:00Z"));
    const end = marketMinute(new Date("2040-01-01T00:00:00Z"));
    for (const c of SANDBOX_CURRENCIES) {
      const market = MARKET_CURRENCIES.find((m) => m.code === c.code)!;
      const bound = new Big(String(c.sim.volatility)).times("1.064").plus("0.00000001");
      let lowest = new Big(c.referencePriceEur);
      let highest = lowest;
      for (let minute = start; minute < end; minute += 9_973n) {
        const rate = rateFromUnits(marketRateUnits(market, minute));
        expect(new Big(rate).gt(0)).toBe(true);
        expect(rel(rate, String(c.referencePriceEur)).lte(bound), `${c.code} ${rate} at minute ${minute}`).toBe(true);
        if (new Big(rate).lt(lowest)) lowest = new Big(rate);
        if (new Big(rate).gt(highest)) highest = new Big(rate);
      }
      // It does swing: over the years it reaches most of its band, both ways.
      const reference = new Big(String(c.referencePriceEur));
      const band = reference.times(String(c.sim.volatility));
      expect(highest.minus(reference).gt(band.times("0.8")), `${c.code} high ${highest}`).toBe(true);
      expect(reference.minus(lowest).gt(band.times("0.8")), `${c.code} low ${lowest}`).toBe(true);
    }
  });

  it("scales its moves by volatility: stablecoins barely move, DOGE a lot", () => {
    const spread = (code: string) => {
      const m = MARKET_CURRENCIES.find((c) => c.code === code)!;
      const rates = Array.from({ length: 2_000 }, (_, i) => new Big(rateFromUnits(marketRateUnits(m, 29_000_000n + BigInt(i) * 97n))));
      const max = rates.reduce((a, b) => (a.gt(b) ? a : b));
      const min = rates.reduce((a, b) => (a.lt(b) ? a : b));
      return max.minus(min).div(new Big(String(SANDBOX_CURRENCIES.find((c) => c.code === code)!.referencePriceEur)));
    };
    expect(spread("USDT").lt("0.03")).toBe(true);
    expect(spread("DOGE").gt("0.3")).toBe(true);
    expect(spread("DOGE").gt(spread("BTC"))).toBe(true);
  });

  it("is the same throughout one UTC minute and moves from one minute to the next, a little", () => {
    expect(marketRates(new Date("2026-11-23T14:05:59.999Z"))).toEqual(marketRates(AT));
    expect(marketRates(new Date("2026-11-23T14:05:00.000Z"))).toEqual(marketRates(AT));
    for (const c of MARKET_CURRENCIES) {
      const { referencePriceEur, sim } = SANDBOX_CURRENCIES.find((s) => s.code === c.code)!;
      const largestStep = new Big(String(referencePriceEur)).times(String(sim.volatility)).times("0.0089").plus("0.00000001");
      let changed = 0;
      const first = marketMinute(AT);
      for (let minute = first; minute < first + 1_000n; minute++) {
        const [a, b] = [rateFromUnits(marketRateUnits(c, minute)), rateFromUnits(marketRateUnits(c, minute + 1n))];
        if (a !== b) changed++;
        // A minute's step, of the reference × volatility: the jitter's range (0.8 %) plus the waves' slopes (0.085 %).
        expect(new Big(b).minus(a).abs().lte(largestStep), `${c.code} ${a} → ${b}`).toBe(true);
      }
      expect(changed, c.code).toBeGreaterThanOrEqual(990);
    }
  });

  it("answers one currency by code, in any case, and nothing for an unknown one", () => {
    expect(marketRate("btc", AT)).toBe(marketRates(AT).BTC);
    expect(marketRate("XYZ", AT)).toBeUndefined();
  });

  it("names the start of the minute", () => {
    expect(marketMinuteStart(AT).toISOString()).toBe("2026-11-23T14:05:00.000Z");
    expect(marketMinuteStart(new Date("1969-12-31T23:59:30Z")).toISOString()).toBe("1969-12-31T23:59:00.000Z");
  });

  it("writes units of 1e-8 as canonical decimals", () => {
    expect(rateFromUnits(6_123_456_789_012n)).toBe("61234.56789012");
    expect(rateFromUnits(92_000_000n)).toBe("0.92");
    expect(rateFromUnits(1n)).toBe("0.00000001");
    expect(rateFromUnits(100_000_000n)).toBe("1");
  });

  it("is pinned: a change to the formula changes these figures (and every seeded and archived invoice's rate)", () => {
    expect(marketRates(new Date("2025-03-01T00:00:00Z"))).toMatchInlineSnapshot(`
      {
        "BTC": "70505.59472801",
        "DOGE": "0.14380128",
        "ETH": "3449.48594524",
        "LTC": "87.29206662",
        "SOL": "160.11742357",
        "USDC": "0.91694276",
        "USDT": "0.91403689",
      }
    `);
  });
});
