import { describe, expect, it } from "vitest";
import { invoiceListQueryToSearchParams, invoiceViewQuerySchema, searchParamsToObject } from "@/lib/contract";
import { ALL_INVOICE_STATUSES } from "@/lib/contract/status";
import {
  CREATED_PRESETS,
  type CreatedPreset,
  type InvoiceListState,
  invoiceListParsers,
  PAGE_SIZES,
  toListQuery,
} from "./invoice-list-state";

const NOW = new Date("2026-11-22T15:30:00Z");
const defaults: InvoiceListState = {
  status: null,
  q: null,
  currency: null,
  created: null,
  from: null,
  to: null,
  page: 1,
  page_size: 20,
  sort_by: "created_at",
  sort_order: "desc",
};

describe("toListQuery", () => {
  it("sends the defaults when nothing is chosen", () => {
    expect(toListQuery(defaults, "UTC", NOW)).toEqual({ page: 1, page_size: 20, sort_by: "created_at", sort_order: "desc" });
  });

  it("searches a text without its control characters (a NUL in the URL never reaches the database)", () => {
    expect(toListQuery({ ...defaults, q: "ab\u0000c\n" }, "UTC", NOW).q).toBe("ab c");
    expect(toListQuery({ ...defaults, q: "\u0000\u0001" }, "UTC", NOW).q).toBeUndefined();
  });

  it("counts 'last 7 days' as today and the six days before it (in UTC here)", () => {
    expect(toListQuery({ ...defaults, created: "7d" }, "UTC", NOW).created_after).toBe("2026-11-15T23:59:59.999Z");
  });

  it("includes both days of a custom range", () => {
    const query = toListQuery({ ...defaults, from: new Date("2026-03-01"), to: new Date("2026-03-31") }, "UTC", NOW);
    expect(query).toMatchObject({ created_after: "2026-02-28T23:59:59.999Z", created_before: "2026-04-01T00:00:00.000Z" });
  });

  it("keeps four-digit years below 100 as they are", () => {
    const from = invoiceListParsers.from.parse("0050-01-01");
    expect(toListQuery({ ...defaults, from }, "UTC", NOW).created_after).toBe("0049-12-31T23:59:59.999Z");
  });

  it("falls back to the default for values the API would refuse", () => {
    const query = toListQuery({ ...defaults, page: 1e21, to: new Date("9999-12-31"), status: ["completed"] }, "UTC", NOW);
    expect(query).toEqual({ status: ["completed"], page: 1, page_size: 20, sort_by: "created_at", sort_order: "desc" });
  });

  it("counts days in the zone it is given: a day is that zone's start to its end, exclusive bounds", () => {
    const day = { ...defaults, from: new Date("2026-11-21"), to: new Date("2026-11-21") };
    expect(toListQuery(day, "Europe/Berlin", NOW)).toMatchObject({
      created_after: "2026-11-20T22:59:59.999Z",
      created_before: "2026-11-21T23:00:00.000Z",
    });
    expect(toListQuery(day, "America/New_York", NOW)).toMatchObject({
      created_after: "2026-11-21T04:59:59.999Z",
      created_before: "2026-11-22T05:00:00.000Z",
    });
    // An invoice of 21 Nov, 00:30 in Berlin is inside Berlin's 21st (and outside its UTC day).
    const berlin = toListQuery(day, "Europe/Berlin", NOW);
    const at = Date.parse("2026-11-20T23:30:00Z");
    expect(at > Date.parse(berlin.created_after!) && at < Date.parse(berlin.created_before!)).toBe(true);
    const utc = toListQuery(day, "UTC", NOW);
    expect(at > Date.parse(utc.created_after!)).toBe(false);
  });

  it("takes a day the clocks change on whole: 23 hours in spring, 25 in autumn", () => {
    const span = (d: string, zone: string) => {
      const q = toListQuery({ ...defaults, from: new Date(d), to: new Date(d) }, zone, NOW);
      return (Date.parse(q.created_before!) - Date.parse(q.created_after!) - 1) / 3_600_000;
    };
    expect(span("2026-03-29", "Europe/Berlin")).toBe(23);
    expect(span("2026-10-25", "Europe/Berlin")).toBe(25);
    expect(span("2026-03-08", "America/New_York")).toBe(23);
    expect(span("2026-11-01", "America/New_York")).toBe(25);
  });

  it("counts presets from today in the zone", () => {
    // 22 Nov 02:30 UTC is still the 21st in New York: its 7 days start on the 15th there.
    const early = new Date("2026-11-22T02:30:00Z");
    expect(toListQuery({ ...defaults, created: "7d" }, "America/New_York", early).created_after).toBe("2026-11-15T04:59:59.999Z");
    expect(toListQuery({ ...defaults, created: "7d" }, "Europe/Berlin", early).created_after).toBe("2026-11-15T22:59:59.999Z");
  });

  it("ignores both ends of an inverted custom range", () => {
    const query = toListQuery({ ...defaults, from: new Date("2026-05-10"), to: new Date("2026-05-01") }, "UTC", NOW);
    expect(query).not.toHaveProperty("created_after");
    expect(query).not.toHaveProperty("created_before");
  });
});

// toListQuery runs in the browser without zod; the contract's schema stays the judge of what the API accepts.
describe("toListQuery against the contract's query schema", () => {
  /** What the API reads from a query: the schema's own parse of its query string. */
  const apiReads = (query: Parameters<typeof invoiceListQueryToSearchParams>[0]) =>
    invoiceViewQuerySchema.safeParse(searchParamsToObject(invoiceListQueryToSearchParams(query)));

  // A small seeded generator (mulberry32), so a failure reproduces.
  function random(seed: number) {
    return () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }
  const YEARS = [0, 1, 2, 50, 99, 1999, 2026, 9998, 9999, 10000, 275000];
  const PAGES = [1, 2, 50, 1e6, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER + 2, 1e20, 1e21, 1e300];

  it("gives, for 5,000 random URL states, a query the schema accepts unchanged, keeping every value it would accept", () => {
    const next = random(13);
    const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)];
    const day = (): Date | null => {
      if (next() < 0.4) return null;
      const date = new Date(Date.UTC(2000, pick([0, 5, 11]), pick([1, 15, 31])));
      date.setUTCFullYear(pick(YEARS));
      return date;
    };
    for (let i = 0; i < 5_000; i++) {
      const preset = next() < 0.3 ? pick(Object.keys(CREATED_PRESETS) as CreatedPreset[]) : null;
      const state: InvoiceListState = {
        status: next() < 0.5 ? ALL_INVOICE_STATUSES.filter(() => next() < 0.3) : null,
        q: next() < 0.3 ? pick(["ORD-1", "  blue moon ", "invoice_0190", ""]) : null,
        currency: next() < 0.5 ? pick(["BTC", "usdt", "USDT.TRC20", "USDC:ETH"]) : null,
        created: preset,
        from: preset ? null : day(),
        to: preset ? null : day(),
        page: pick(PAGES),
        page_size: pick(PAGE_SIZES),
        sort_by: pick(["created_at", "updated_at", "fiat_amount", "crypto_amount"] as const),
        sort_order: pick(["asc", "desc"] as const),
      };
      const query = toListQuery(state, "UTC", NOW);
      const read = apiReads(query);
      expect(read.success, JSON.stringify({ state, query })).toBe(true);
      expect(read.data).toEqual(query);
      // Nothing the API would accept is dropped: each value left out fails the schema on its own.
      const full = { ...toListQuery({ ...state, page: 1, from: null, to: null, created: null }, "UTC", NOW), ...candidateExtras(state) };
      for (const [key, value] of Object.entries(full)) {
        if (key in query) continue;
        expect(apiReads({ [key]: value }).success, `${key}=${value} was dropped`).toBe(false);
      }
    }
  });

  /** The page and the created bounds the state asks for, before any is dropped. */
  function candidateExtras(state: InvoiceListState): Record<string, string | number> {
    const out: Record<string, string | number> = { page: state.page };
    const bounds = toListQuery({ ...state, page: 1 }, "UTC", NOW);
    for (const key of ["created_after", "created_before"] as const) if (bounds[key]) out[key] = bounds[key];
    const midnight = (date: Date) => new Date(date).setUTCHours(0, 0, 0, 0);
    const iso = (ms: number) => (Number.isFinite(ms) && Math.abs(ms) <= 8.64e15 ? new Date(ms).toISOString() : "invalid");
    if (!state.created && state.from && state.to && midnight(state.from) < midnight(state.to) + 86_400_000) {
      out.created_after ??= iso(midnight(state.from) - 1);
      out.created_before ??= iso(midnight(state.to) + 86_400_000);
    } else if (!state.created && !(state.from && state.to)) {
      if (state.from) out.created_after ??= iso(midnight(state.from) - 1);
      if (state.to) out.created_before ??= iso(midnight(state.to) + 86_400_000);
    }
    return out;
  }
});
