import { describe, expect, it } from "vitest";
import { canonicalListSearch, listSearchWith, nextSort, readInvoiceListSearch, serializeInvoiceListState } from "./invoice-list-state";

describe("the list's URL from its GET form", () => {
  it("leaves out empty fields, joins repeated statuses, drops 'custom'", () => {
    const form: [string, string][] = [
      ["q", ""],
      ["status", "pending"],
      ["status", "paid_partial"],
      ["currency", "BTC"],
      ["created", "custom"],
      ["from", "2026-01-01"],
      ["to", ""],
    ];
    expect(canonicalListSearch(form)).toBe("?status=pending,paid_partial&currency=BTC&from=2026-01-01");
  });

  it("a preset drops the custom days", () => {
    expect(
      canonicalListSearch([
        ["created", "7d"],
        ["from", "2026-01-01"],
        ["to", "2026-01-31"],
      ]),
    ).toBe("?created=7d");
  });

  it("is what the script pushes: the serializer's own URL for the same state", () => {
    const { state } = readInvoiceListSearch({ status: ["pending", "paid_partial"], currency: "BTC", q: "" });
    expect(canonicalListSearch(new URLSearchParams(serializeInvoiceListState(state)).entries())).toBe(serializeInvoiceListState(state));
  });

  it("redirects a form's submission to the canonical URL, and a canonical URL nowhere", () => {
    const submitted = readInvoiceListSearch({ q: "", status: ["pending", "paid_partial"], currency: "", created: "" });
    expect(submitted.canonical).toBe("?status=pending,paid_partial");
    expect(submitted.state.status).toEqual(["pending", "paid_partial"]);
    const canonical = readInvoiceListSearch({ status: "pending,paid_partial", page: "2" });
    expect(canonical.canonical).toBeNull();
    expect(readInvoiceListSearch({}).canonical).toBeNull();
  });

  it("says which values it could not read, and does not redirect them away", () => {
    const read = readInvoiceListSearch({
      status: "bogus",
      page: "abc",
      page_size: "7",
      sort_by: "name",
      currency: "$$",
      from: "yesterday",
    });
    expect(read.canonical).toBeNull();
    expect(read.notices).toEqual([
      "“bogus” is not a status; showing all statuses.",
      "“$$” is not a currency code; showing all currencies.",
      "“yesterday” in From is not a day of the calendar (YYYY-MM-DD); the list starts at the first invoice.",
      "“abc” is not a page number; showing page 1.",
      "“7” is not a page size (10, 20, 50, 100); showing 20 a page.",
      "“name” cannot be sorted by; sorted by creation date.",
    ]);
    expect(read.state).toMatchObject({ status: null, page: 1, page_size: 20, sort_by: "created_at", currency: null, from: null });
    expect(read.unreadDays).toEqual({ from: "yesterday" });
    expect(readInvoiceListSearch({ status: "paid,pending" }).notices).toEqual(["“paid” is not a status; showing the others."]);
  });

  it("reads only days of the calendar: a day written like one that is not (30 February) is said, never rolled over", () => {
    const read = readInvoiceListSearch({ from: "2026-02-30", to: "2026-13-45" });
    expect(read.state).toMatchObject({ from: null, to: null });
    expect(read.unreadDays).toEqual({ from: "2026-02-30", to: "2026-13-45" });
    expect(read.notices).toHaveLength(2);
    expect(readInvoiceListSearch({ from: "2024-02-29" }).state.from?.toISOString()).toBe("2024-02-29T00:00:00.000Z");
    // Past the years a Date holds, and longer than a day: said whole, never read.
    expect(readInvoiceListSearch({ from: "10000-01-01" })).toMatchObject({ state: { from: null }, unreadDays: { from: "10000-01-01" } });
    expect(readInvoiceListSearch({ to: "2026-02-28x" }).unreadDays).toEqual({ to: "2026-02-28x" });
  });

  it("sort links flip the sorted column and start the others high to low, from page 1", () => {
    const { state } = readInvoiceListSearch({ sort_by: "fiat_amount", page: "3" });
    expect(listSearchWith(state, nextSort(state, "fiat_amount"))).toBe("?sort_by=fiat_amount&sort_order=asc");
    expect(listSearchWith(state, nextSort(state, "created_at"))).toBe("");
    expect(listSearchWith(state, { page: 4 })).toBe("?page=4&sort_by=fiat_amount");
  });
});
