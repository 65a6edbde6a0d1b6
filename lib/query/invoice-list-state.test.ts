import { describe, expect, it } from "vitest";
import { invoiceListParsers, toListQuery, type InvoiceListState } from "./invoice-list-state";

const NOW = new Date("2026-11-22T15:30:00Z");
const defaults: InvoiceListState = {
  status: null, currency: null, created: null, from: null, to: null,
  page: 1, page_size: 20, sort_by: "created_at", sort_order: "desc",
};

describe("toListQuery", () => {
  it("sends the defaults when nothing is chosen", () => {
    expect(toListQuery(defaults, NOW)).toEqual({ page: 1, page_size: 20, sort_by: "created_at", sort_order: "desc" });
  });

  it("counts 'last 7 days' as today and the six UTC days before it", () => {
    expect(toListQuery({ ...defaults, created: "7d" }, NOW).created_after).toBe("2026-11-15T23:59:59.999Z");
  });

  it("includes both days of a custom range", () => {
    const query = toListQuery({ ...defaults, from: new Date("2026-03-01"), to: new Date("2026-03-31") }, NOW);
    expect(query).toMatchObject({ created_after: "2026-02-28T23:59:59.999Z", created_before: "2026-04-01T00:00:00.000Z" });
  });

  it("keeps four-digit years below 100 as they are", () => {
    const from = invoiceListParsers.from.parse("0050-01-01");
    expect(toListQuery({ ...defaults, from }, NOW).created_after).toBe("0049-12-31T23:59:59.999Z");
  });

  it("falls back to the default for values the API would refuse", () => {
    const query = toListQuery({ ...defaults, page: 1e21, to: new Date("9999-12-31"), status: "completed" }, NOW);
    expect(query).toEqual({ status: "completed", page: 1, page_size: 20, sort_by: "created_at", sort_order: "desc" });
  });

  it("ignores both ends of an inverted custom range", () => {
    const query = toListQuery({ ...defaults, from: new Date("2026-05-10"), to: new Date("2026-05-01") }, NOW);
    expect(query).not.toHaveProperty("created_after");
    expect(query).not.toHaveProperty("created_before");
  });
});
