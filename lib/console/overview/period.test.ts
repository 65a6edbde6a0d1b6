import { describe, expect, it } from "vitest";
import { loadInvoiceListState, toListQuery } from "@/lib/contract/invoice-list-state";
import { bucketIndex, buckets, type OverviewState, resolvePeriod, tableHref } from "./period";

const now = new Date("2026-03-18T15:30:00Z"); // a Wednesday
const state = (s: Partial<OverviewState>): OverviewState => ({ period: "30d", from: null, to: null, bucket: null, ...s });
const day = (iso: string) => new Date(`${iso}T00:00:00Z`);

describe("resolvePeriod", () => {
  it.each([
    ["today", "2026-03-18T00:00:00.000Z", 1, "/invoices?from=2026-03-18&to=2026-03-18"],
    ["7d", "2026-03-12T00:00:00.000Z", 7, "/invoices?created=7d"],
    ["30d", "2026-02-17T00:00:00.000Z", 30, "/invoices?created=30d"],
    ["90d", "2025-12-19T00:00:00.000Z", 90, "/invoices?created=90d"],
  ] as const)("%s starts at %s, spans %i whole days (UTC here) up to the end of today, and links to %s", (period, first, days, href) => {
    const p = resolvePeriod(state({ period }), "UTC", now);
    expect(new Date(p.start).toISOString()).toBe(first);
    expect(new Date(p.end).toISOString()).toBe("2026-03-19T00:00:00.000Z");
    expect(p.days).toBe(days);
    expect(tableHref(p)).toBe(href);
  });

  it("uses exactly the table's query for the same filter, so counts and table totals agree", () => {
    for (const period of ["today", "7d", "30d", "90d"] as const) {
      const p = resolvePeriod(state({ period }), "UTC", now);
      const tableState = loadInvoiceListState(new URLSearchParams(tableHref(p).split("?")[1]));
      const table = toListQuery(tableState, "UTC", now);
      expect([p.createdAfter, p.createdBefore]).toEqual([table.created_after, table.created_before]);
    }
  });

  it("a custom period includes both of its days", () => {
    const p = resolvePeriod(state({ period: "custom", from: day("2026-01-01"), to: day("2026-03-31") }), "UTC", now);
    expect(p.notice).toBeUndefined();
    expect(p.createdAfter).toBe("2025-12-31T23:59:59.999Z");
    expect(p.createdBefore).toBe("2026-04-01T00:00:00.000Z");
    expect(p.days).toBe(90);
    expect(tableHref(p, { status: ["cancelled"] })).toBe("/invoices?status=cancelled&from=2026-01-01&to=2026-03-31");
  });

  it("a day the calendar does not have is named, and the days as typed are given back to mend", () => {
    const p = resolvePeriod(state({ period: "custom", from: null, to: day("2026-03-05") }), "UTC", now, {
      from: "2026-02-30",
      to: "2026-03-05",
    });
    expect(p.notice).toBe("2026-02-30 is not a day of the calendar (YYYY-MM-DD).");
    expect(p.period).toBe("30d");
    expect(p.typed).toEqual({ from: "2026-02-30", to: "2026-03-05" });
    expect(resolvePeriod(state({ period: "custom", from: day("2026-03-01"), to: day("2026-03-05") }), "UTC", now).typed).toBeUndefined();
    // Anything else typed is not repeated as the console's own words.
    expect(resolvePeriod(state({ period: "custom" }), "UTC", now, { from: "Call +1 555 0100 for a refund", to: "" }).notice).toBe(
      "Write days as YYYY-MM-DD.",
    );
  });

  it.each([
    [{ from: null, to: day("2026-03-01") }, "Choose both the first and the last day of the custom period."],
    [{ from: day("2026-03-02"), to: day("2026-03-01") }, "The first day of the custom period is after its last day."],
    [{ from: day("2025-01-01"), to: day("2026-03-01") }, "A custom period spans at most 366 days."],
    [{ from: day("2026-04-01"), to: day("2026-04-02") }, "The custom period starts in the future."],
  ])("an unusable custom period falls back to 30 days and says why (%o)", (range, notice) => {
    const p = resolvePeriod(state({ period: "custom", ...range }), "UTC", now);
    expect(p.notice).toBe(notice);
    expect(p.period).toBe("30d");
    expect(tableHref(p)).toBe("/invoices?created=30d");
  });

  it("buckets by day up to a month, by week beyond; a chosen size is kept unless days would be too many", () => {
    expect(resolvePeriod(state({ period: "30d" }), "UTC", now).bucket).toBe("day");
    expect(resolvePeriod(state({ period: "90d" }), "UTC", now).bucket).toBe("week");
    expect(resolvePeriod(state({ period: "90d", bucket: "day" }), "UTC", now).bucket).toBe("day");
    expect(resolvePeriod(state({ period: "7d", bucket: "week" }), "UTC", now).bucket).toBe("week");
    const year = resolvePeriod(state({ period: "custom", from: day("2025-03-19"), to: day("2026-03-18"), bucket: "day" }), "UTC", now);
    expect(year.bucket).toBe("week");
  });
});

describe("periods in a zone", () => {
  it("Today is today in the zone, from its start to its end there", () => {
    // 23:30 UTC on the 18th is already the 19th in Berlin, still the 18th in New York.
    const late = new Date("2026-03-18T23:30:00Z");
    const berlin = resolvePeriod(state({ period: "today" }), "Europe/Berlin", late);
    expect([berlin.firstDay, berlin.lastDay, berlin.days]).toEqual(["2026-03-19", "2026-03-19", 1]);
    expect([berlin.createdAfter, berlin.createdBefore]).toEqual(["2026-03-18T22:59:59.999Z", "2026-03-19T23:00:00.000Z"]);
    expect(tableHref(berlin)).toBe("/invoices?from=2026-03-19&to=2026-03-19");
    const newYork = resolvePeriod(state({ period: "today" }), "America/New_York", late);
    expect([newYork.firstDay, newYork.createdAfter, newYork.createdBefore]).toEqual([
      "2026-03-18",
      "2026-03-18T03:59:59.999Z",
      "2026-03-19T04:00:00.000Z",
    ]);
  });

  it("day buckets are the zone's days, 23 hours long on the day summer time starts", () => {
    const p = resolvePeriod(
      state({ period: "custom", from: day("2026-03-28"), to: day("2026-03-30"), bucket: "day" }),
      "Europe/Berlin",
      new Date("2026-04-10T12:00:00Z"),
    );
    const list = buckets(p.start, p.end, "day", "Europe/Berlin");
    expect(list.map((b) => b.label)).toEqual(["2026-03-28", "2026-03-29", "2026-03-30"]);
    expect(list.map((b) => (b.end - b.start) / 3_600_000)).toEqual([24, 23, 24]);
    // 00:30 on the 29th in Berlin (23:30 UTC on the 28th) is counted on the 29th.
    expect(list[bucketIndex(list, Date.parse("2026-03-28T23:30:00Z"))].label).toBe("2026-03-29");
  });

  it("the table's query for the period is the overview's, in the same zone", () => {
    for (const period of ["today", "7d", "30d", "90d"] as const) {
      const p = resolvePeriod(state({ period }), "America/New_York", now);
      const table = toListQuery(loadInvoiceListState(new URLSearchParams(tableHref(p).split("?")[1])), "America/New_York", now);
      expect([p.createdAfter, p.createdBefore]).toEqual([table.created_after, table.created_before]);
    }
  });
});

describe("buckets", () => {
  it("days: one per day of the zone (UTC here), contiguous", () => {
    const list = buckets(day("2026-03-12").getTime(), day("2026-03-19").getTime(), "day", "UTC");
    expect(list.map((b) => b.label)).toEqual([
      "2026-03-12",
      "2026-03-13",
      "2026-03-14",
      "2026-03-15",
      "2026-03-16",
      "2026-03-17",
      "2026-03-18",
    ]);
    list.slice(1).forEach((b, i) => expect(b.start).toBe(list[i].end));
  });

  it("weeks: Monday to Sunday, the first and last cut to the period", () => {
    // 2026-03-12 is a Thursday; 2026-03-16 a Monday.
    const list = buckets(day("2026-03-12").getTime(), day("2026-03-26").getTime(), "week", "UTC");
    expect(list.map((b) => b.label)).toEqual(["2026-03-12 – 2026-03-15", "2026-03-16 – 2026-03-22", "2026-03-23 – 2026-03-25"]);
    expect(list.at(-1)!.end).toBe(day("2026-03-26").getTime());
  });

  it("a 90-day period has 14 weeks at most and a year 53 or 54", () => {
    expect(buckets(day("2025-12-19").getTime(), day("2026-03-19").getTime(), "week", "UTC").length).toBeLessThanOrEqual(14);
    expect(buckets(day("2025-03-19").getTime(), day("2026-03-19").getTime(), "week", "UTC").length).toBeLessThanOrEqual(54);
  });

  it("bucketIndex finds the bucket of an instant, -1 outside", () => {
    const list = buckets(day("2026-03-12").getTime(), day("2026-03-26").getTime(), "week", "UTC");
    expect(bucketIndex(list, Date.parse("2026-03-12T00:00:00Z"))).toBe(0);
    expect(bucketIndex(list, Date.parse("2026-03-15T23:59:59.999Z"))).toBe(0);
    expect(bucketIndex(list, Date.parse("2026-03-16T00:00:00Z"))).toBe(1);
    expect(bucketIndex(list, Date.parse("2026-03-25T23:00:00Z"))).toBe(2);
    expect(bucketIndex(list, Date.parse("2026-03-26T00:00:00Z"))).toBe(-1);
    expect(bucketIndex(list, Date.parse("2026-03-11T23:59:59Z"))).toBe(-1);
    expect(bucketIndex(list, NaN)).toBe(-1);
  });
});
