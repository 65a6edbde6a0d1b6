import { describe, expect, it } from "vitest";
import type { HistoricalRates } from "@/lib/contract";
import { createRatesHistory } from "./history";

/* The historical rates' LRU (lib/console/rates/history.ts): bounded, most recently used kept, current rates never kept. */
describe("createRatesHistory", () => {
  const priced = (minute: string): HistoricalRates => ({ rates: { ETH: "2310.42" }, at: minute });

  it("keeps at most maxEntries minutes, dropping the least recently used", async () => {
    const asked: string[] = [];
    const history = createRatesHistory({
      fetchAt: async (m) => (asked.push(m), priced(m)),
      current: async () => ({ rates: {} }),
      maxEntries: 2,
    });
    await history.at("A");
    await history.at("B");
    await history.at("A"); // A is now the most recent
    await history.at("C"); // drops B
    expect(history.size()).toBe(2);
    await history.at("A");
    await history.at("B");
    expect(asked).toEqual(["A", "B", "C", "B"]);
  });

  it("passes current rates on with at null, keeps none, and asks the rates cache for a while after", async () => {
    let clock = 0;
    const asked: string[] = [];
    const history = createRatesHistory({
      fetchAt: async (m) => (asked.push(m), { rates: { ETH: "3000" }, at: null }),
      current: async () => ({ rates: { ETH: "3001" } }),
      ignoredForMs: 1_000,
      now: () => clock,
    });
    expect(await history.at("A")).toEqual({ rates: { ETH: "3000" }, at: null });
    expect(await history.at("A")).toEqual({ rates: { ETH: "3001" }, at: null });
    expect(history.size()).toBe(0);
    clock = 1_000;
    await history.at("A");
    expect(asked).toEqual(["A", "A"]);
  });
});
