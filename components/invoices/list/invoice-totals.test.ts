import { describe, expect, it } from "vitest";
import { summaryFigures, totalsNote, voidedNote } from "./invoice-totals";

describe("the totals line", () => {
  it("says which of the summed invoices no payment is expected for", () => {
    expect(voidedNote({ count: 1_300, statuses: { completed: 248, cancelled: 12, expired: 1_040 } })).toBe(
      "including 12 cancelled and 1,040 expired",
    );
    expect(voidedNote({ count: 20, statuses: { pending: 8, expired: 12 } })).toBe("including 12 expired");
  });

  it("says nothing when the view holds none of them, or only them", () => {
    expect(voidedNote({ count: 9, statuses: { completed: 9 } })).toBeNull();
    expect(voidedNote({ count: 9, statuses: { completed: 9, cancelled: 0 } })).toBeNull();
    expect(voidedNote({ count: 5, statuses: { cancelled: 2, expired: 3 } })).toBeNull();
    expect(voidedNote({ count: 0, statuses: {} })).toBeNull();
  });

  it("gives the count first, then each currency's exact sum", () => {
    expect(summaryFigures({ count: 1, fiat: { EUR: "10.5" }, crypto: { ETH: "0.000000000000000001", BTC: "1" } })).toEqual([
      "1 invoice",
      "€10.50",
      "1.00 BTC",
      "0.000000000000000001 ETH",
    ]);
  });

  it("says the sums are of amounts invoiced, which are voided, and how fresh", () => {
    const now = Date.parse("2026-11-28T05:00:00Z");
    const base = { count: 10, as_of: "2026-11-28T04:58:00Z", state: "ready" as const, progress: null };
    expect(totalsNote({ ...base, statuses: { completed: 8, cancelled: 2 } }, now)).toBe(
      "amounts invoiced, including 2 cancelled; as of 2 min ago",
    );
    expect(totalsNote({ ...base, statuses: { paid_partial: 10 } }, now)).toMatch(/^amounts invoiced; as of /);
  });
});
