import { describe, expect, it } from "vitest";
import { fillProgress, fillProgressSentence } from "./fill-progress";

describe("fillProgress", () => {
  const started = "2026-11-26T10:00:00.000Z";
  it("counts the invoices read, and the time left at the pace so far", () => {
    const now = Date.parse(started) + 120_000;
    const progress = fillProgress({ fill_page: 3, fill_read: 412_000, fill_total: 1_000_000, fill_started_at: started }, now);
    expect(progress).toEqual({ read: 412_000, total: 1_000_000, eta_seconds: 172 });
    expect(fillProgressSentence(progress)).toBe("Reading your invoices: 412,000 of 1,000,000, about 3 min left.");
  });

  it("says nothing of a fill that is done, and no time before a pace", () => {
    expect(fillProgress({ fill_page: null, fill_read: 10, fill_total: 10, fill_started_at: started })).toBeNull();
    expect(fillProgress({ fill_page: 1, fill_read: 0, fill_total: 500, fill_started_at: started }, Date.parse(started))).toEqual({
      read: 0,
      total: 500,
      eta_seconds: null,
    });
    expect(fillProgressSentence({ read: 0, total: 500, eta_seconds: null })).toBe("Reading your invoices: 0 of 500.");
    expect(fillProgressSentence(null)).toBe("Reading your invoices for the first time.");
  });

  it("never reads more than the total, and speaks in hours of a long fill", () => {
    expect(
      fillProgress({ fill_page: 2, fill_read: 1_000, fill_total: 950, fill_started_at: started }, Date.parse(started) + 1000)?.read,
    ).toBe(950);
    expect(fillProgressSentence({ read: 10, total: 10_000_000, eta_seconds: 6 * 3600 + 1800 })).toBe(
      "Reading your invoices: 10 of 10,000,000, about 6.5 h left.",
    );
    expect(fillProgressSentence({ read: 10, total: 20, eta_seconds: 30 })).toBe(
      "Reading your invoices: 10 of 20, less than a minute left.",
    );
  });
});
