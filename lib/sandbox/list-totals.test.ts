import { and, asc, count, desc, eq, gt, lt, sql } from "drizzle-orm";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { ALL_INVOICE_STATUSES, INVOICE_STATUSES, type InvoiceListQuery } from "@/lib/contract";
import type { Db } from "@/lib/platform/db";
import { getSandboxDb } from "@/lib/sandbox";
import { invoices } from "@/lib/sandbox/schema";
import { createTestMerchant } from "@/test/sandbox-fixtures";
import { createArchivedInvoice } from "./archived";
import { countInvoices, type InvoiceFilter } from "./invoice-counts";
import { listInvoices, updateInvoiceStatus } from "./invoices";
import type { Caller } from "./keys";
import { seedInvoices } from "./seed";

// GET /invoices's totals come from a rollup kept by triggers, and its pages from index walks that
// turn around past the middle. Everything here is checked against plain queries: count(*) and ORDER BY …
// OFFSET on the table itself.

const DAY = 86_400_000;
const NOW = new Date("2026-06-15T12:34:56.789Z");
const SORTS = ["created_at", "updated_at", "fiat_amount", "crypto_amount"] as const;
const CURRENCIES = ["BTC", "ETH", "USDT", "LTC"] as const;
const SORT_COLUMNS = {
  created_at: invoices.createdAt,
  updated_at: invoices.updatedAt,
  fiat_amount: invoices.fiatAmount,
  crypto_amount: invoices.cryptoAmount,
};

let db: Db;
const caller = (merchantId: string): Caller => ({ keyId: "test", merchantId, scopes: ["invoices:read", "invoices:write"] });

function plainWhere(f: InvoiceFilter) {
  return and(
    eq(invoices.merchantId, f.merchantId),
    f.status ? eq(invoices.status, f.status) : undefined,
    f.currency ? eq(invoices.currency, f.currency) : undefined,
    f.createdAfter ? gt(invoices.createdAt, f.createdAfter) : undefined,
    f.createdBefore ? lt(invoices.createdAt, f.createdBefore) : undefined,
  );
}

async function plainCount(f: InvoiceFilter): Promise<number> {
  return (await db.select({ n: count() }).from(invoices).where(plainWhere(f)))[0].n;
}

/** Filters worth comparing: none, each one, created ranges with and without whole days inside, and all. */
function filtersOf(merchantId: string): InvoiceFilter[] {
  const ranges: [Date | undefined, Date | undefined][] = [
    [undefined, undefined],
    [new Date(NOW.getTime() - 30 * DAY), NOW],
    [new Date(NOW.getTime() - 30 * DAY), undefined],
    [undefined, new Date(NOW.getTime() - 90 * DAY)],
    [new Date("2026-06-01T00:00:00Z"), new Date("2026-06-03T00:00:00Z")], // whole days, edges at midnight
    [new Date("2026-04-02T01:00:00Z"), new Date("2026-06-14T22:00:00Z")], // edges that are most of their day
    [new Date("2026-06-10T05:00:00Z"), new Date("2026-06-11T07:00:00Z")], // no whole day inside
    [new Date("2026-06-10T05:00:00Z"), new Date("2026-06-10T09:00:00Z")], // within one day
  ];
  const list: InvoiceFilter[] = [];
  for (const [createdAfter, createdBefore] of ranges)
    for (const status of [undefined, "completed", "new", "archived"])
      for (const currency of [undefined, "BTC", "ETH"]) list.push({ merchantId, status, currency, createdAfter, createdBefore });
  return list;
}

async function expectTotalsMatch(merchantId: string): Promise<void> {
  for (const f of filtersOf(merchantId)) {
    expect({ f, total: await countInvoices(db, f) }).toEqual({ f, total: await plainCount(f) });
  }
  await expectSortBucketsMatch(merchantId);
}

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** The sort-key buckets the triggers keep (drizzle/0008, 0010) equal the invoices grouped by a plain query. */
async function expectSortBucketsMatch(merchantId: string): Promise<void> {
  const kept = await db.execute(sql`
    select sort_by, status, currency, bucket::float8 as bucket, count::int as n from sandbox.invoice_sort_buckets
    where merchant_id = ${merchantId}::uuid and count <> 0 order by 1, 2, 3, 4`);
  const cut = (column: string) =>
    sql.raw(`case when ${column} > 0 then trunc(${column}, 1 - floor(log(${column}))::int) else ${column} end`);
  const plain = await db.execute(sql`
    select k.sort_by, status, currency, k.bucket::float8 as bucket, count(*)::int as n
    from sandbox.invoices, lateral (values
      ('updated_at', floor(extract(epoch from updated_at) / 86400) * 86400),
      ('fiat_amount', ${cut("fiat_amount")}),
      ('crypto_amount', ${cut("crypto_amount")})) as k (sort_by, bucket)
    where merchant_id = ${merchantId}::uuid group by 1, 2, 3, 4 order by 1, 2, 3, 4`);
  expect(rowsOf(kept)).toEqual(rowsOf(plain));

  const keptDays = await db.execute(sql`
    select sort_by, day::text as day, bucket::float8 as bucket, count::int as n from sandbox.invoice_day_buckets
    where merchant_id = ${merchantId}::uuid and count <> 0 order by 1, 2, 3`);
  const plainDays = await db.execute(sql`
    select k.sort_by, (created_at at time zone 'UTC')::date::text as day, k.bucket::float8 as bucket, count(*)::int as n
    from sandbox.invoices, lateral (values ('fiat_amount', ${cut("fiat_amount")}), ('crypto_amount', ${cut("crypto_amount")})) as k (sort_by, bucket)
    where merchant_id = ${merchantId}::uuid group by 1, 2, 3 order by 1, 2, 3`);
  expect(rowsOf(keptDays)).toEqual(rowsOf(plainDays));
}

beforeAll(async () => {
  db = await getSandboxDb();
});

describe("list totals: the rollup equals count(*) after every kind of write", () => {
  it("after the seed's bulk insert, each insert, status change, archive and delete", async () => {
    const { merchantId } = await createTestMerchant(db, []);
    await seedInvoices(db, { merchantId, count: 500, seed: 0.31, now: NOW });
    await expectTotalsMatch(merchantId);

    // Inserts of single rows and of several in one statement, some at exactly midnight.
    await db.insert(invoices).values(
      [0, 1, 2, 3].map((i) => ({
        id: crypto.randomUUID(),
        merchantId,
        orderId: `EXTRA-${i}`,
        status: "new",
        fiatAmount: `${10 + i}`,
        cryptoAmount: "0.001",
        currency: "ETH",
        allowedErrorPercent: 1,
        createdAt: new Date(Date.parse("2026-06-10T00:00:00Z") + i * 6 * 3_600_000),
        updatedAt: NOW,
      })),
    );
    await expectTotalsMatch(merchantId);

    // Status changes through the API's own path, and one that moves a whole set in one statement.
    const some = await db
      .select()
      .from(invoices)
      .where(and(eq(invoices.merchantId, merchantId), eq(invoices.status, "completed")))
      .limit(5);
    for (const [i, row] of some.entries())
      await updateInvoiceStatus(db, caller(merchantId), row.id, INVOICE_STATUSES[i % INVOICE_STATUSES.length]);
    await db
      .update(invoices)
      .set({ status: "expired" })
      .where(and(eq(invoices.merchantId, merchantId), eq(invoices.status, "new")));
    // A change of currency and of creation time moves a row between keys and days.
    await db
      .update(invoices)
      .set({ currency: "BTC", createdAt: new Date("2026-06-01T00:00:00Z") })
      .where(eq(invoices.id, some[0].id));
    await expectTotalsMatch(merchantId);

    // Archive (POST /archived), with a past created_at and without one.
    await createArchivedInvoice(
      db,
      caller(merchantId),
      { order_id: "ARCH-1", currency: "BTC", fiat_amount: "12", created_at: "2026-06-02" },
      NOW,
    );
    await createArchivedInvoice(db, caller(merchantId), { order_id: "ARCH-2", currency: "ETH", crypto_amount: "0.5" }, NOW);
    await expectTotalsMatch(merchantId);

    await db.delete(invoices).where(and(eq(invoices.merchantId, merchantId), eq(invoices.status, "expired"), eq(invoices.currency, "BTC")));
    await expectTotalsMatch(merchantId);
  });

  it("a change that does not move an invoice between keys leaves the rollup as it was", async () => {
    const { merchantId, invoices: rows } = await createTestMerchant(db, [{ createdAt: NOW, status: "pending" }]);
    await updateInvoiceStatus(db, caller(merchantId), rows[0].id, "pending");
    await db.update(invoices).set({ orderName: "renamed", updatedAt: new Date() }).where(eq(invoices.id, rows[0].id));
    await expectTotalsMatch(merchantId);
    expect(await countInvoices(db, { merchantId, status: "pending" })).toBe(1);
  });

  it("concurrent writers (on PostgreSQL, from many connections at once) keep the totals exact", async () => {
    const day = (i: number) => new Date(NOW.getTime() - (i % 3) * DAY);
    const { merchantId, invoices: rows } = await createTestMerchant(
      db,
      Array.from({ length: 40 }, (_, i) => ({ createdAt: day(i), status: "new", currency: CURRENCIES[i % 2] })),
    );
    // Every invoice changed several times at once, archives and plain inserts racing with them: all hit the
    // same few counter rows.
    const writes: Promise<unknown>[] = [];
    for (let round = 0; round < 3; round++) {
      for (const [i, row] of rows.entries()) {
        writes.push(updateInvoiceStatus(db, caller(merchantId), row.id, INVOICE_STATUSES[(i + round) % INVOICE_STATUSES.length]));
      }
      for (let i = 0; i < 10; i++) {
        writes.push(
          createArchivedInvoice(
            db,
            caller(merchantId),
            { order_id: `RACE-${round}-${i}`, currency: CURRENCIES[i % 2], fiat_amount: `${5 + i}` },
            NOW,
          ),
        );
      }
    }
    const outcomes = await Promise.allSettled(writes);
    expect(outcomes.filter((o) => o.status === "rejected")).toEqual([]);
    await expectTotalsMatch(merchantId);
    expect(await countInvoices(db, { merchantId })).toBe(70);
  });
});

describe("list pages: rows and totals equal a plain query's", () => {
  let merchantId: string;

  beforeAll(async () => {
    ({ merchantId } = await createTestMerchant(db, []));
    await seedInvoices(db, { merchantId, count: 400, seed: 0.77, now: NOW });
    // Ties on every sort key, broken by id: a block of invoices with one amount and one timestamp.
    await db.insert(invoices).values(
      Array.from({ length: 25 }, (_, i) => ({
        id: crypto.randomUUID(),
        merchantId,
        orderId: `TIE-${i}`,
        status: i % 2 ? "completed" : "expired",
        fiatAmount: "99",
        cryptoAmount: "0.5",
        currency: "BTC",
        allowedErrorPercent: 1,
        createdAt: new Date("2026-06-05T10:00:00Z"),
        updatedAt: new Date("2026-06-05T10:00:00Z"),
      })),
    );
  });

  async function plainPage(q: InvoiceListQuery) {
    const f: InvoiceFilter = {
      merchantId,
      status: q.status,
      currency: q.currency,
      createdAfter: q.created_after ? new Date(q.created_after) : undefined,
      createdBefore: q.created_before ? new Date(q.created_before) : undefined,
    };
    const dir = q.sort_order === "asc" ? asc : desc;
    const rows = await db
      .select({ id: invoices.id })
      .from(invoices)
      .where(plainWhere(f))
      .orderBy(dir(SORT_COLUMNS[q.sort_by]), dir(invoices.id))
      .limit(q.page_size)
      .offset((q.page - 1) * q.page_size);
    return { ids: rows.map((r) => `invoice_${r.id}`), total: await plainCount(f) };
  }

  const instant = fc.integer({ min: Date.parse("2025-06-01T00:00:00Z"), max: NOW.getTime() + DAY }).map((t) => new Date(t).toISOString());
  const query = fc
    .record({
      status: fc.option(fc.constantFrom(...ALL_INVOICE_STATUSES), { nil: undefined }),
      currency: fc.option(fc.constantFrom(...CURRENCIES, "btc"), { nil: undefined }),
      range: fc.option(fc.tuple(fc.option(instant, { nil: undefined }), fc.option(instant, { nil: undefined })), { nil: undefined }),
      page: fc.oneof(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 60 })),
      page_size: fc.constantFrom(1, 7, 20, 100),
      sort_by: fc.constantFrom(...SORTS),
      sort_order: fc.constantFrom("asc" as const, "desc" as const),
    })
    .map(({ range, ...q }): InvoiceListQuery => {
      const [a, b] = (range ?? [undefined, undefined]).slice().sort();
      return { ...q, created_after: a, created_before: b && b !== a ? b : undefined };
    });

  it("for random filters, sorts and pages (first, deep, past the middle, last, past the end)", async () => {
    await fc.assert(
      fc.asyncProperty(query, fc.constantFrom(undefined, 0, 30), async (q, bucketWalkFrom) => {
        // Deep pages start from a sort-key bucket; small lists take that path when told to from depth 0 or 30.
        const answer = await listInvoices(db, caller(merchantId), q, { bucketWalkFrom });
        const plain = await plainPage({ ...q, currency: q.currency?.toUpperCase() });
        expect(answer.items.map((i) => i.invoice_id)).toEqual(plain.ids);
        expect(answer.pagination.total_records).toBe(plain.total);
        expect(answer.pagination.total_pages).toBe(Math.ceil(plain.total / q.page_size));
      }),
      { numRuns: 250 },
    );
  });

  it("every page of one filter and sort, first to last, lists each invoice exactly once", async () => {
    // A status, and created ranges with whole days and partial edges (their buckets are counted per day).
    const filters = [
      { status: "completed" as const },
      { created_after: "2026-03-10T05:00:00.000Z", created_before: "2026-06-12T07:30:00.000Z" },
      { created_after: "2026-05-31T23:00:00.000Z" },
      // Edges that are most of their day: counted as the day less the rest of it.
      { created_after: "2026-04-02T01:00:00.000Z", created_before: "2026-06-14T22:00:00.000Z" },
      { created_after: "2026-06-10T05:00:00.000Z", created_before: "2026-06-11T07:00:00.000Z" },
    ];
    for (const [sort_by, filter] of SORTS.flatMap((s) => filters.map((f) => [s, f] as const))) {
      for (const sort_order of ["asc", "desc"] as const) {
        const q = { sort_by, sort_order, ...filter, page_size: 7 };
        const everything = await plainPage({ ...q, page: 1, page_size: 10_000 });
        // From the ends of the index, and from the sort key's buckets on every page.
        for (const bucketWalkFrom of [undefined, 0]) {
          const first = await listInvoices(db, caller(merchantId), { ...q, page: 1 }, { bucketWalkFrom });
          const ids: string[] = [];
          for (let page = 1; page <= first.pagination.total_pages; page++) {
            ids.push(...(await listInvoices(db, caller(merchantId), { ...q, page }, { bucketWalkFrom })).items.map((i) => i.invoice_id));
          }
          expect({ q, bucketWalkFrom, ids }).toEqual({ q, bucketWalkFrom, ids: everything.ids });
        }
      }
    }
    // A few thousand pages, bounded: about 20 s alone, twice that beside other suites on two cores.
  }, 120_000);

  it("no invoice is updated before it was created (the updated_at walk of a created range relies on it)", async () => {
    const [row] = await db.select().from(invoices).where(eq(invoices.merchantId, merchantId)).limit(1);
    await expect(
      db
        .update(invoices)
        .set({ updatedAt: new Date(row.createdAt.getTime() - 1) })
        .where(eq(invoices.id, row.id)),
    ).rejects.toThrow();
    const future = new Date(Date.now() + 30_000); // within the minute of clock skew allowed
    const archived = await createArchivedInvoice(db, caller(merchantId), {
      order_id: "SKEW-1",
      currency: "BTC",
      fiat_amount: "3",
      created_at: future.toISOString(),
    });
    const [stored] = await db.select().from(invoices).where(eq(invoices.orderId, "SKEW-1"));
    expect({ archived: archived.status, updatedAt: stored.updatedAt.getTime() }).toEqual({
      archived: "archived",
      updatedAt: future.getTime(),
    });
  });

  it("the rollup has a row per status, currency and UTC day, never a count below zero", async () => {
    const result = (await db.execute(sql`select count(*)::int as n from sandbox.invoice_counts where count < 0`)) as unknown as {
      rows: { n: number }[];
    };
    expect(result.rows[0].n).toBe(0);
    for (const table of ["invoice_sort_buckets", "invoice_day_buckets"]) {
      const negative = await db.execute(
        sql`select count(*)::int as n from ${sql.identifier("sandbox")}.${sql.identifier(table)} where count < 0`,
      );
      expect({ table, negative: rowsOf<{ n: number }>(negative)[0].n }).toEqual({ table, negative: 0 });
    }
  });
});
