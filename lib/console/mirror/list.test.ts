import { sql } from "drizzle-orm";
import fc from "fast-check";
import { beforeEach, describe, expect, it } from "vitest";
import type { Invoice } from "@/lib/contract";
import type { InvoiceViewQuery } from "@/lib/contract/invoice-view";
import { addDecimals, compareDecimal } from "@/lib/contract/money";
import { type Db, getDatabase } from "@/lib/platform/db";
import { mirrorList, mirrorSummary } from "./list";
import { indexInvoices } from "./store";

/*
 * The mirror's views on the real database (PGlite, or PostgreSQL with DATABASE_URL): totals from the
 * rollups equal a plain sum over the invoices after every kind of write, and several statuses, a text query and
 * the created range select what a plain filter selects.
 */

const STATUSES = ["new", "pending", "paid_partial", "completed", "cancelled"] as const;
const CURRENCIES = ["BTC", "ETH", "USDT"] as const;
const DAY = 86_400_000;
const BASE = Date.parse("2026-03-28T00:00:00.000Z");

const invoice = (fields: Partial<Invoice> & { invoice_id: string }): Invoice => ({
  order_id: null,
  order_name: null,
  status: "new",
  fiat_amount: "10",
  fiat_currency: "EUR",
  crypto_amount: "0.1",
  currency: "BTC",
  allowed_error_percent: null,
  callback_url: null,
  created_at: "2026-03-28T00:00:00.000Z",
  updated_at: "2026-03-28T00:00:00.000Z",
  expires_at: null,
  priced_in: null,
  payment: null,
  provider_fields: [],
  ...fields,
});

const view = (fields: Partial<InvoiceViewQuery> = {}): InvoiceViewQuery => ({
  page: 1,
  page_size: 100,
  sort_by: "created_at",
  sort_order: "desc",
  ...fields,
});

/** The plain answer: a filter and a sum over the invoices as the test holds them, with no database. */
function expected(invoices: Invoice[], v: InvoiceViewQuery) {
  const rows = invoices.filter(
    (i) =>
      (!v.status || v.status.includes(i.status as never)) &&
      (!v.currency || i.currency?.toLowerCase() === v.currency.toLowerCase()) &&
      (!v.created_after || (i.created_at !== null && Date.parse(i.created_at) > Date.parse(v.created_after))) &&
      (!v.created_before || (i.created_at !== null && Date.parse(i.created_at) < Date.parse(v.created_before))),
  );
  const fiat: Record<string, string> = {};
  const crypto: Record<string, string> = {};
  const statuses: Record<string, number> = {};
  const fiatCounts: Record<string, number> = {};
  for (const i of rows) {
    fiatCounts[i.fiat_currency] = (fiatCounts[i.fiat_currency] ?? 0) + 1;
    if (i.status) statuses[i.status] = (statuses[i.status] ?? 0) + 1;
    // A currency the view's invoices are in has its sum, even when an amount is missing (it counts as 0).
    fiat[i.fiat_currency] = addDecimals(fiat[i.fiat_currency] ?? "0", i.fiat_amount ?? "0");
    if (i.currency) crypto[i.currency] = addDecimals(crypto[i.currency] ?? "0", i.crypto_amount ?? "0");
  }
  return { rows, totals: { count: rows.length, fiat, crypto, statuses, fiatCounts } };
}

let db: Db;
beforeEach(async () => {
  db = await getDatabase();
  await db.execute(sql`delete from console.search_invoices`);
});

const decimal = fc
  .tuple(fc.bigInt({ min: 0n, max: 10n ** 12n }), fc.integer({ min: 0, max: 18 }))
  .map(([units, places]) => {
    const digits = units.toString().padStart(places + 1, "0");
    return places ? `${digits.slice(0, -places)}.${digits.slice(-places)}` : digits;
  })
  .map((text) =>
    text
      .replace(/^0+(?=\d)/, "")
      .replace(/(\.\d*?)0+$/, "$1")
      .replace(/\.$/, ""),
  );

const created = fc.option(
  fc.integer({ min: -3 * DAY, max: 3 * DAY }).map((offset) => new Date(BASE + offset).toISOString()),
  { freq: 8 },
);

const write = fc.record({
  id: fc.integer({ min: 1, max: 12 }),
  status: fc.constantFrom(...STATUSES),
  currency: fc.constantFrom(...CURRENCIES),
  fiat: fc.option(decimal, { freq: 8 }),
  crypto: decimal,
  created,
  remove: fc.integer({ min: 0, max: 5 }).map((n) => n === 0),
});

const bound = fc.option(
  fc.integer({ min: -4 * DAY, max: 4 * DAY }).map((offset) => new Date(BASE + offset).toISOString()),
  { freq: 2 },
);

const filter = fc.record({
  status: fc.option(fc.subarray([...STATUSES], { minLength: 1 }), { nil: undefined }),
  currency: fc.option(fc.constantFrom("BTC", "eth", "DOGE"), { nil: undefined }),
  created_after: fc.option(
    bound.map((b) => b ?? undefined),
    { nil: undefined },
  ),
  created_before: fc.option(
    bound.map((b) => b ?? undefined),
    { nil: undefined },
  ),
});

describe("the mirror's totals", () => {
  it("equal a plain sum over the invoices after inserts, changes and deletes, for any filter and created range", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(write, { minLength: 1, maxLength: 25 }),
        fc.array(filter, { minLength: 1, maxLength: 6 }),
        async (writes, filters) => {
          await db.execute(sql`delete from console.search_invoices`);
          const held = new Map<string, Invoice>();
          let clock = Date.parse("2026-04-01T00:00:00.000Z");
          for (const w of writes) {
            const id = `inv-${w.id}`;
            if (w.remove && held.has(id)) {
              held.delete(id);
              await db.execute(sql`delete from console.search_invoices where invoice_id = ${id}`);
              continue;
            }
            const next = invoice({
              invoice_id: id,
              status: w.status,
              currency: w.currency,
              fiat_amount: w.fiat,
              crypto_amount: w.crypto,
              created_at: w.created,
              updated_at: new Date((clock += 1000)).toISOString(),
            });
            held.set(id, next);
            await indexInvoices(db, [next]);
          }
          for (const f of filters) {
            const v = view(f);
            if (v.created_after && v.created_before && v.created_after >= v.created_before) continue;
            const answer = await mirrorSummary(db, v);
            const want = expected([...held.values()], v).totals;
            expect(answer.count).toBe(want.count);
            expect(answer.statuses).toEqual(want.statuses);
            expect(answer.fiatCounts).toEqual(want.fiatCounts);
            expect(Object.keys(answer.fiat).sort()).toEqual(Object.keys(want.fiat).sort());
            for (const [code, sum] of Object.entries(want.fiat)) expect(compareDecimal(answer.fiat[code], sum), code).toBe(0);
            expect(Object.keys(answer.crypto).sort()).toEqual(Object.keys(want.crypto).sort());
            for (const [code, sum] of Object.entries(want.crypto)) expect(compareDecimal(answer.crypto[code], sum), code).toBe(0);
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it("keep every digit: 18-decimal amounts and fiat beyond a float's integers add up exactly", async () => {
    await indexInvoices(db, [
      invoice({ invoice_id: "a", currency: "ETH", crypto_amount: "0.123456789012345678", fiat_amount: "100000000000000.01" }),
      invoice({ invoice_id: "b", currency: "ETH", crypto_amount: "0.000000000000000001", fiat_amount: "0.02" }),
    ]);
    const totals = await mirrorSummary(db, view());
    expect(totals).toEqual({
      count: 2,
      fiat: { EUR: "100000000000000.03" },
      crypto: { ETH: "0.123456789012345679" },
      statuses: { new: 2 },
      fiatCounts: { EUR: 2 },
    });
  });

  it("does not let an older read undo a newer change", async () => {
    await indexInvoices(db, [invoice({ invoice_id: "a", status: "cancelled", updated_at: "2026-04-02T00:00:00.000Z" })]);
    await indexInvoices(db, [invoice({ invoice_id: "a", status: "pending", updated_at: "2026-04-01T00:00:00.000Z" })]);
    expect(await mirrorSummary(db, view({ status: ["pending"] }))).toMatchObject({ count: 0 });
    expect(await mirrorSummary(db, view({ status: ["cancelled"] }))).toMatchObject({ count: 1 });
  });
});

describe("the mirror's list", () => {
  const sortKey: Record<InvoiceViewQuery["sort_by"], (i: Invoice) => string | null> = {
    created_at: (i) => i.created_at,
    updated_at: (i) => i.updated_at,
    fiat_amount: (i) => i.fiat_amount,
    crypto_amount: (i) => i.crypto_amount,
  };
  /** The view's rows in its order: nulls last ascending and first descending (PostgreSQL's), ties by id. */
  const ordered = (rows: Invoice[], v: InvoiceViewQuery) => {
    const key = sortKey[v.sort_by];
    const compareKeys = (a: string, b: string) => (v.sort_by.endsWith("amount") ? compareDecimal(a, b) : Date.parse(a) - Date.parse(b));
    const up = [...rows].sort((a, b) => {
      const [x, y] = [key(a), key(b)];
      const byKey = x === y ? 0 : x === null ? 1 : y === null ? -1 : compareKeys(x, y);
      return byKey || (a.invoice_id < b.invoice_id ? -1 : a.invoice_id > b.invoice_id ? 1 : 0);
    });
    return v.sort_order === "asc" ? up : up.reverse();
  };

  it("pages every view in its order, walked from either end, with no row twice or missing", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(write, { minLength: 1, maxLength: 30 }),
        fc.array(
          fc.record({
            filter,
            sort_by: fc.constantFrom("created_at", "updated_at", "fiat_amount", "crypto_amount"),
            sort_order: fc.constantFrom("asc", "desc"),
            page_size: fc.integer({ min: 1, max: 7 }),
          }),
          { minLength: 1, maxLength: 4 },
        ),
        async (writes, views) => {
          await db.execute(sql`delete from console.search_invoices`);
          const held = new Map<string, Invoice>();
          for (const [n, w] of writes.entries()) {
            const next = invoice({
              invoice_id: `inv-${w.id}`,
              status: w.status,
              currency: w.currency,
              fiat_amount: w.fiat,
              crypto_amount: w.crypto,
              created_at: w.created,
              // Ties on purpose: several invoices share a time, so the id decides.
              updated_at: new Date(Date.parse("2026-04-01T00:00:00.000Z") + (n % 3) * 1000).toISOString(),
            });
            held.set(next.invoice_id, next);
          }
          await indexInvoices(db, [...held.values()]);
          for (const { filter: f, ...order } of views) {
            const v = view({ ...f, ...order });
            if (v.created_after && v.created_before && v.created_after >= v.created_before) continue;
            const want = ordered(expected([...held.values()], v).rows, v).map((i) => i.invoice_id);
            const pages = Math.max(1, Math.ceil(want.length / v.page_size));
            const got: string[] = [];
            for (let page = 1; page <= pages + 1; page++) {
              const answer = await mirrorList(db, { ...v, page });
              expect(answer.pagination.total_records).toBe(want.length);
              got.push(...answer.items.map((i) => i.invoice_id));
            }
            expect(got).toEqual(want);
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it("starts a deep walk by created_at at its page's day, counting the days before from the rollups", async () => {
    // Many rows over a few days, small pages: most pages are deep in both directions. Every walk past its first
    // row starts at a day here (at a million rows, past 2,000). Rows and bounds share a grid of six hours, so that
    // bounds fall on midnights and on rows' own instants.
    const grid = (steps: number) => fc.integer({ min: -steps, max: steps }).map((k) => new Date(BASE + k * 6 * 3_600_000).toISOString());
    const deepFilter = fc.record({
      status: fc.option(fc.subarray([...STATUSES], { minLength: 2 }), { nil: undefined }),
      currency: fc.option(fc.constantFrom("BTC", "eth"), { nil: undefined, freq: 3 }),
      created_after: fc.option(grid(16), { nil: undefined, freq: 2 }),
      created_before: fc.option(grid(16), { nil: undefined, freq: 2 }),
    });
    const starts: ({ passed: number } | null)[] = [];
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ status: fc.constantFrom(...STATUSES), currency: fc.constantFrom(...CURRENCIES), created: grid(12) }), {
          minLength: 40,
          maxLength: 120,
        }),
        fc.record({ filter: deepFilter, sort_order: fc.constantFrom("asc", "desc"), page_size: fc.integer({ min: 1, max: 4 }) }),
        async (rows, { filter: f, ...order }) => {
          await db.execute(sql`delete from console.search_invoices`);
          const held = rows.map((r, n) =>
            invoice({ invoice_id: `inv-${String(n).padStart(3, "0")}`, status: r.status, currency: r.currency, created_at: r.created }),
          );
          await indexInvoices(db, held);
          const v = view({ ...f, ...order, sort_by: "created_at" });
          if (v.created_after && v.created_before && v.created_after >= v.created_before) return;
          const want = ordered(expected(held, v).rows, v).map((i) => i.invoice_id);
          const got: string[] = [];
          for (let page = 1; page <= Math.ceil(want.length / v.page_size) + 1; page++) {
            const walk = { fromDayPast: 0, onStart: (start: { passed: number } | null) => starts.push(start) };
            got.push(...(await mirrorList(db, { ...v, page }, walk)).items.map((i) => i.invoice_id));
          }
          expect(got).toEqual(want);
        },
      ),
      { numRuns: 40 },
    );
    // Every invoice has a created_at here, so each walk that looked for its day found one, and many started past
    // some days: a walk that never jumped would pass the comparison above.
    expect(starts.length).toBeGreaterThan(100);
    expect(starts.filter((start) => start === null)).toEqual([]);
    expect(starts.filter((start) => start!.passed > 0).length).toBeGreaterThan(starts.length / 4);
  });

  it("walks from the contract's first and last days, and past a provider's instant beyond them, as from any other", async () => {
    const around = (day: string) => [0, 1, 2, 3].map((n) => invoice({ invoice_id: `inv-${n}`, created_at: `${day}T1${n}:00:00.000Z` }));
    for (const day of ["0001-01-01", "9999-12-31", "10000-01-01"]) {
      await db.execute(sql`delete from console.search_invoices`);
      await indexInvoices(db, around(day));
      for (const sort_order of ["asc", "desc"] as const) {
        const walk = { fromDayPast: 0 };
        const pages = [];
        for (let page = 1; page <= 4; page++) pages.push(...(await mirrorList(db, view({ sort_order, page, page_size: 1 }), walk)).items);
        const ids = pages.map((i) => i.invoice_id);
        expect(ids, `${day} ${sort_order}`).toEqual(
          sort_order === "asc" ? ["inv-0", "inv-1", "inv-2", "inv-3"] : ["inv-3", "inv-2", "inv-1", "inv-0"],
        );
      }
    }
  });

  const names = ["Walnut desk", "Oak chair", "Desk lamp", "Blue moon lamp", "Walnut shelf"];
  const seed = () =>
    names.map((name, i) =>
      invoice({
        invoice_id: `invoice_0190a1d2-bbbb-7000-8000-00000000000${i}`,
        order_id: `ORD-${1000 + i}`,
        order_name: name,
        status: STATUSES[i % STATUSES.length],
        fiat_amount: `${(i + 1) * 10}.5`,
        created_at: new Date(BASE + i * 3_600_000).toISOString(),
      }),
    );

  it("takes several statuses, sorted and paged, in the provider's shape", async () => {
    const all = seed();
    await indexInvoices(db, all);
    const v = view({ status: ["new", "pending", "paid_partial"], sort_by: "fiat_amount", sort_order: "asc", page_size: 2 });
    const first = await mirrorList(db, v);
    const second = await mirrorList(db, { ...v, page: 2 });
    const want = expected(all, v).rows.sort((a, b) => compareDecimal(a.fiat_amount ?? "0", b.fiat_amount ?? "0"));
    expect([...first.items, ...second.items].map((i) => i.invoice_id)).toEqual(want.map((i) => i.invoice_id));
    expect(first.pagination).toEqual({
      current_page: 1,
      page_size: 2,
      total_pages: 2,
      total_records: 3,
      has_next: true,
      has_previous: false,
    });
    // The whole invoice comes back as it was read, every field.
    expect(first.items[0]).toEqual(want[0]);
  });

  it("finds by words of the order name, the order id or its start, and the invoice id or its tail", async () => {
    await indexInvoices(db, seed());
    const ids = async (q: string) => (await mirrorList(db, view({ q, sort_order: "asc" }))).items.map((i) => i.order_id);
    expect(await ids("walnut")).toEqual(["ORD-1000", "ORD-1004"]);
    expect(await ids("lamp desk")).toEqual(["ORD-1002"]);
    expect(await ids("ord-1003")).toEqual(["ORD-1003"]);
    expect(await ids("ORD-10")).toHaveLength(5);
    expect(await ids("8000-000000000001")).toEqual(["ORD-1001"]);
    expect(await ids("50%_")).toEqual([]);
    const summary = await mirrorSummary(db, view({ q: "walnut", status: ["new"] }));
    expect(summary).toEqual({ count: 1, fiat: { EUR: "10.5" }, crypto: { BTC: "0.1" }, statuses: { new: 1 }, fiatCounts: { EUR: 1 } });
    const picked = await mirrorList(db, view({ ids: ["invoice_0190a1d2-bbbb-7000-8000-000000000003", "ORD-1001"] }));
    expect(picked.items.map((i) => i.order_id)).toEqual(["ORD-1003"]);
  });
});
