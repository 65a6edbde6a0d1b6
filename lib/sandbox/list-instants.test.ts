import { readFileSync } from "node:fs";
import path from "node:path";
import { count, eq, sql } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as listRoute } from "@/app/sandbox/api/v1/invoices/route";
import type { Db } from "@/lib/platform/db";
import { getSandboxDb } from "@/lib/sandbox";
import { invoiceCounts, invoiceDayBuckets, invoiceSortBuckets, invoices } from "@/lib/sandbox/schema";
import { createTestMerchant } from "@/test/sandbox-fixtures";
import { seedInvoices } from "./seed";

// An instant the sandbox answers is the instant it stores, to the millisecond, so that an invoice's
// own created_at sent back as created_after or created_before never returns that invoice (both are strict).

const URL_ = "http://sandbox.test/sandbox/api/v1";
const NOW = new Date("2026-06-15T12:34:56.789Z");
let db: Db;
let key: string;
let merchantId: string;

beforeAll(async () => {
  db = await getSandboxDb();
  ({ key, merchantId } = await createTestMerchant(db, []));
  await seedInvoices(db, { merchantId, count: 400, seed: 0.53, now: NOW });
});

async function list(query: string): Promise<{ invoice_id: string; created_at: string }[]> {
  const response = await listRoute(new Request(`${URL_}/invoices?${query}`, { headers: { "api-key": key } }), {
    params: Promise.resolve({} as never),
  });
  expect(response.status).toBe(200);
  return (await response.json()).items;
}

/** Rows of the merchant whose instant columns carry more than milliseconds. */
async function finerThanMilliseconds(merchant: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(invoices)
    .where(
      sql`${invoices.merchantId} = ${merchant} and (${invoices.createdAt} <> date_trunc('milliseconds', ${invoices.createdAt})
        or ${invoices.updatedAt} <> date_trunc('milliseconds', ${invoices.updatedAt})
        or ${invoices.expiresAt} <> date_trunc('milliseconds', ${invoices.expiresAt})
        or ${invoices.paidAt} <> date_trunc('milliseconds', ${invoices.paidAt}))`,
    );
  return row.n;
}

describe("seeded instants are millisecond-precise", () => {
  it("no seeded created_at, updated_at, expires_at or paid_at has a finer part", async () => {
    const [{ n }] = await db.select({ n: count() }).from(invoices).where(eq(invoices.merchantId, merchantId));
    expect(n).toBe(400);
    expect(await finerThanMilliseconds(merchantId)).toBe(0);
  });

  it("created_after=<an invoice's created_at> and created_before=<its created_at> never return it", async () => {
    const all = await (async () => {
      const items: { invoice_id: string; created_at: string }[] = [];
      for (let page = 1; page <= 4; page++) items.push(...(await list(`page=${page}&page_size=100&sort_by=created_at&sort_order=asc`)));
      return items;
    })();
    expect(all).toHaveLength(400);
    // Every 8th invoice, and each one's neighbours in time: sorted by created_at, a bound equal to the invoice's
    // own instant would put it first on the page.
    for (const invoice of all.filter((_, i) => i % 8 === 0)) {
      const after = await list(`created_after=${encodeURIComponent(invoice.created_at)}&sort_by=created_at&sort_order=asc&page_size=5`);
      expect(
        after.map((i) => i.invoice_id),
        `after ${invoice.created_at}`,
      ).not.toContain(invoice.invoice_id);
      for (const item of after) expect(Date.parse(item.created_at)).toBeGreaterThan(Date.parse(invoice.created_at));
      const before = await list(`created_before=${encodeURIComponent(invoice.created_at)}&sort_by=created_at&sort_order=desc&page_size=5`);
      expect(
        before.map((i) => i.invoice_id),
        `before ${invoice.created_at}`,
      ).not.toContain(invoice.invoice_id);
      for (const item of before) expect(Date.parse(item.created_at)).toBeLessThan(Date.parse(invoice.created_at));
    }
  });
});

describe("migration 0011 truncates stored instants to milliseconds", () => {
  it("rows stored with microseconds become their millisecond instant; counts and buckets still agree with the table", async () => {
    const { merchantId: m } = await createTestMerchant(db, []);
    const base = Date.parse("2026-03-10T23:59:59.999Z");
    // The last microseconds of a day among them: truncated, they must stay in that day.
    const micros = ["2026-03-10T23:59:59.999999Z", "2026-03-10T08:00:00.123456Z", "2026-03-11T00:00:00.000001Z"];
    for (const [i, at] of micros.entries()) {
      await db.execute(sql`insert into sandbox.invoices (id, merchant_id, order_id, status, fiat_amount, crypto_amount, currency, allowed_error_percent,
          created_at, updated_at, expires_at, paid_at)
        values (${uuidv7({ msecs: base + i })}::uuid, ${m}::uuid, ${`MICRO-${i}`}, 'completed', 10.5, 0.001, 'BTC', 1,
          ${at}::timestamptz, ${at}::timestamptz + interval '1.000003 seconds', ${at}::timestamptz + interval '1 day', ${at}::timestamptz + interval '7 microseconds')`);
    }
    const snapshot = async () => ({
      counts: await db
        .select({ day: invoiceCounts.day, count: invoiceCounts.count })
        .from(invoiceCounts)
        .where(eq(invoiceCounts.merchantId, m))
        .orderBy(invoiceCounts.day),
      sort: await db
        .select({ by: invoiceSortBuckets.sortBy, bucket: invoiceSortBuckets.bucket, count: invoiceSortBuckets.count })
        .from(invoiceSortBuckets)
        .where(eq(invoiceSortBuckets.merchantId, m))
        .orderBy(invoiceSortBuckets.sortBy, invoiceSortBuckets.bucket),
      days: await db
        .select({ by: invoiceDayBuckets.sortBy, day: invoiceDayBuckets.day, count: invoiceDayBuckets.count })
        .from(invoiceDayBuckets)
        .where(eq(invoiceDayBuckets.merchantId, m))
        .orderBy(invoiceDayBuckets.sortBy, invoiceDayBuckets.day),
    });
    const before = await snapshot();
    expect(await finerThanMilliseconds(m)).toBe(3);

    const migration = readFileSync(path.resolve(import.meta.dirname, "../../drizzle/0011_millisecond_instants.sql"), "utf8");
    await db.transaction(async (tx) => {
      for (const statement of migration.split("--> statement-breakpoint")) await tx.execute(sql.raw(statement));
    });

    expect(await finerThanMilliseconds(m)).toBe(0);
    const rows = await db.select().from(invoices).where(eq(invoices.merchantId, m)).orderBy(invoices.orderId);
    expect(rows.map((r) => r.createdAt.toISOString())).toEqual([
      "2026-03-10T23:59:59.999Z",
      "2026-03-10T08:00:00.123Z",
      "2026-03-11T00:00:00.000Z",
    ]);
    expect(rows.map((r) => r.updatedAt.getTime() - r.createdAt.getTime())).toEqual([1001, 1000, 1000]);
    // Same UTC days, same buckets: the rollups the list's totals and deep pages rely on are unchanged.
    expect(await snapshot()).toEqual(before);
  });
});
