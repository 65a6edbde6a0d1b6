import { describe, expect, it } from "vitest";
import { ttlCache } from "@/lib/console/upstream/ttl-cache";
import type { Invoice, InvoiceListQuery } from "@/lib/contract";
import { attentionQueue, completedVolume, type ListInvoices, statusCounts, VOLUME_PAGE_BUDGET } from "./overview";
import { resolvePeriod } from "./period";

const now = new Date("2026-03-18T15:30:00Z");
const DAY = 86_400_000;

function invoice(n: number, status: string, createdAt: number, fiat = "10", fiatCurrency = "EUR"): Invoice {
  return {
    invoice_id: `inv_${n}`,
    order_id: `o${n}`,
    order_name: null,
    status,
    fiat_amount: fiat,
    fiat_currency: fiatCurrency,
    crypto_amount: null,
    currency: "BTC",
    allowed_error_percent: 1,
    callback_url: null,
    created_at: new Date(createdAt).toISOString(),
    updated_at: null,
    expires_at: null,
    priced_in: null,
    payment: null,
    provider_fields: [],
  };
}

/** The spec's GET /invoices over an array (filters exclusive at both ends, ties by id), counting its calls. */
function provider(invoices: Invoice[]) {
  const calls: InvoiceListQuery[] = [];
  const list: ListInvoices = async (q) => {
    calls.push(q);
    const rows = invoices
      .filter((i) => !q.status || i.status === q.status)
      .filter((i) => !q.created_after || i.created_at! > q.created_after)
      .filter((i) => !q.created_before || i.created_at! < q.created_before)
      .sort((a, b) => (a.created_at! < b.created_at! ? -1 : a.created_at! > b.created_at! ? 1 : a.invoice_id < b.invoice_id ? -1 : 1));
    if (q.sort_order === "desc") rows.reverse();
    const items = rows.slice((q.page - 1) * q.page_size, q.page * q.page_size);
    const total_pages = Math.ceil(rows.length / q.page_size);
    return {
      items,
      pagination: {
        current_page: q.page,
        page_size: q.page_size,
        total_pages,
        total_records: rows.length,
        has_next: q.page < total_pages,
        has_previous: q.page > 1,
      },
    };
  };
  return { list, calls };
}

const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`);
const period7d = resolvePeriod({ period: "7d", from: null, to: null, bucket: null }, "UTC", now);

describe("statusCounts", () => {
  it("one one-row call per status, counting only the period", async () => {
    const p = provider([
      invoice(1, "completed", day("2026-03-12")), // first instant of the period
      invoice(2, "completed", day("2026-03-12") - 1), // a millisecond before it
      invoice(3, "pending", day("2026-03-18") + 3600_000),
      invoice(4, "archived", day("2026-03-15")),
    ]);
    const counts = await statusCounts(p.list, period7d);
    expect(Object.fromEntries(counts.map((c) => [c.status, c.count]))).toEqual({
      new: 0,
      pending: 1,
      completed: 1,
      expired: 0,
      cancelled: 0,
      paid_partial: 0,
      archived: 1,
    });
    expect(p.calls).toHaveLength(7);
    expect(p.calls.every((c) => c.page_size === 1)).toBe(true);
  });
});

describe("completedVolume", () => {
  it("sums EUR per day from every completed invoice of the period, exactly", async () => {
    const p = provider([
      invoice(1, "completed", day("2026-03-12") + 1000, "0.1"),
      invoice(2, "completed", day("2026-03-12") + 2000, "0.2"),
      invoice(3, "completed", day("2026-03-18") + 1000, "5"),
      invoice(4, "completed", day("2026-03-17"), "7", "USD"),
      invoice(5, "cancelled", day("2026-03-13"), "1000"),
    ]);
    const v = await completedVolume(p.list, period7d, { now: now.getTime() });
    expect(v.kind).toBe("sums");
    expect(v.points.map((pt) => pt.label)).toHaveLength(7);
    expect(v.points[0]).toMatchObject({ label: "2026-03-12", count: 2, sumEur: "0.3" });
    expect(v.points[5]).toMatchObject({ label: "2026-03-17", count: 1, sumEur: "0" });
    expect(v.points[6]).toMatchObject({ label: "2026-03-18", count: 1, sumEur: "5" });
    expect(v).toMatchObject({ completed: 4, totalEur: "5.3", notSummed: 1, calls: 1 });
  });

  it("sums with decimal arithmetic: 15-digit euros and many cents add up to the cent, where floats drift", async () => {
    // 100000000000000.01 is 100000000000000.02 as a float; each sum rounded to cents drifts past about €7e13.
    const rows = [
      ...Array.from({ length: 3 }, (_, i) => invoice(i, "completed", day("2026-03-12") + i * 1000, "100000000000000.01")),
      ...Array.from({ length: 3 }, (_, i) => invoice(10 + i, "completed", day("2026-03-13") + i * 1000, "0.123456789012345678")),
      invoice(20, "completed", day("2026-03-14"), "70000000000000.07"),
    ];
    const v = await completedVolume(provider(rows).list, period7d, { now: now.getTime() });
    expect(v.points[0].sumEur).toBe("300000000000000.03");
    expect(v.points[1].sumEur).toBe("0.370370367037037034");
    expect(v.points[2].sumEur).toBe("70000000000000.07");
    expect(v.totalEur).toBe("370000000000000.470370367037037034");
  });

  it("walks ascending under a fixed upper bound, so invoices added during the walk are neither counted twice nor shift a page", async () => {
    const rows = Array.from({ length: 250 }, (_, i) => invoice(i, "completed", day("2026-03-12") + i * 60_000, "1"));
    const p = provider(rows);
    const slow: ListInvoices = async (q) => {
      const answer = await p.list(q);
      // Someone completes a new invoice after every page.
      rows.push(invoice(1000 + rows.length, "completed", now.getTime() - 1000 + rows.length, "1"));
      return answer;
    };
    const v = await completedVolume(slow, period7d, { now: now.getTime() - 5000 });
    expect(v).toMatchObject({ kind: "sums", completed: 250, totalEur: "250", calls: 3 });
    expect(p.calls.every((c) => c.created_before === new Date(now.getTime() - 5000).toISOString() && c.sort_order === "asc")).toBe(true);
  });

  it("over the page budget it says so and counts per bucket instead, within a bounded number of calls", async () => {
    const many = VOLUME_PAGE_BUDGET * 100 + 1;
    const rows = Array.from({ length: many }, (_, i) => invoice(i, "completed", day("2026-03-12") + (i % 7) * DAY + i, "1"));
    const p = provider(rows);
    const v = await completedVolume(p.list, period7d, { now: now.getTime() });
    expect(v.kind).toBe("counts");
    expect(v.totalEur).toBeNull();
    expect(v.points.every((pt) => pt.sumEur === null)).toBe(true);
    expect(v.points.reduce((s, pt) => s + pt.count, 0)).toBe(many);
    expect(v.calls).toBe(1 + 7);
    expect(p.calls).toHaveLength(8);
  });

  it("90 days by day with too many to sum is counted by week: at most 15 calls, not 91", async () => {
    const p90 = resolvePeriod({ period: "90d", from: null, to: null, bucket: "day" }, "UTC", now);
    const rows = Array.from({ length: VOLUME_PAGE_BUDGET * 100 + 50 }, (_, i) => invoice(i, "completed", p90.start + (i % 90) * DAY, "1"));
    const p = provider(rows);
    const v = await completedVolume(p.list, p90, { now: now.getTime() });
    expect(v).toMatchObject({ kind: "counts", bucket: "week" });
    expect(p.calls.length).toBeLessThanOrEqual(15);
    expect(v.points.reduce((s, pt) => s + pt.count, 0)).toBe(rows.length);
  });

  it("a provider failure fails the card (no partial sums pretending to be whole)", async () => {
    const p = provider(Array.from({ length: 150 }, (_, i) => invoice(i, "completed", day("2026-03-13") + i, "1")));
    const failing: ListInvoices = (q) => (q.page === 2 ? Promise.reject(new Error("upstream down")) : p.list(q));
    await expect(completedVolume(failing, period7d, { now: now.getTime() })).rejects.toThrow("upstream down");
  });
});

describe("attentionQueue", () => {
  it("partly paid and pending since before yesterday, oldest first, each list one call", async () => {
    // Now is 18 March, 15:30 UTC: yesterday began at 17 March, 00:00 UTC.
    const p = provider([
      invoice(1, "pending", now.getTime() - 2 * 3600_000), // today: not yet
      invoice(2, "pending", now.getTime() - 3 * DAY),
      invoice(3, "paid_partial", now.getTime() - 1 * 3600_000),
      invoice(4, "paid_partial", now.getTime() - 10 * DAY),
      invoice(5, "completed", now.getTime() - 20 * DAY),
      invoice(6, "pending", Date.parse("2026-03-17T06:00:00Z")), // yesterday in UTC; the day before in Los Angeles
      invoice(7, "pending", Date.parse("2026-03-16T20:00:00Z")), // the day before yesterday in UTC; in Tokyo, yesterday
    ]);
    const a = await attentionQueue(p.list, { now: now.getTime() });
    expect(a.items.map((i) => i.invoice_id)).toEqual(["inv_4", "inv_2", "inv_7", "inv_3"]);
    expect(a).toMatchObject({ partlyPaid: 2, pendingBeforeYesterday: 2, lastDay: "2026-03-16" });
    expect(p.calls).toHaveLength(2);
    // The days are the person's. In Tokyo it is already the 19th: yesterday began at 17 March, 15:00 UTC.
    expect(await attentionQueue(p.list, { now: now.getTime(), timeZone: "Asia/Tokyo" })).toMatchObject({
      pendingBeforeYesterday: 3,
      lastDay: "2026-03-17",
    });
    // In Los Angeles it is the 18th, 08:30: yesterday began at 17 March, 07:00 UTC.
    expect(await attentionQueue(p.list, { now: now.getTime(), timeZone: "America/Los_Angeles" })).toMatchObject({
      pendingBeforeYesterday: 3,
      lastDay: "2026-03-16",
    });
  });
});

describe("ttlCache", () => {
  it("shares one answer within the TTL, asks again after it, and never keeps a failure", async () => {
    let t = 0;
    const cached = ttlCache<number>({ ttlMs: 30_000, now: () => t });
    let loads = 0;
    const load = async () => ++loads;
    expect(await Promise.all([cached("k", load), cached("k", load)])).toEqual([1, 1]);
    t = 29_999;
    expect(await cached("k", load)).toBe(1);
    t = 30_000;
    expect(await cached("k", load)).toBe(2);
    await expect(cached("bad", () => Promise.reject(new Error("down")))).rejects.toThrow("down");
    expect(await cached("bad", load)).toBe(3);
  });

  it("keeps at most maxEntries, dropping the oldest", async () => {
    const cached = ttlCache<string>({ ttlMs: 60_000, maxEntries: 2 });
    let loads = 0;
    for (const key of ["a", "b", "c"]) await cached(key, async () => `${key}${++loads}`);
    expect(await cached("b", async () => "again")).toBe("b2");
    expect(await cached("a", async () => "again")).toBe("again");
  });
});

describe("the overview from the mirror", () => {
  it("gives the same counts and the same exact EUR sums as the walk of the provider's list, with no page budget", async () => {
    const { getDatabase } = await import("@/lib/platform/db");
    const { indexInvoices } = await import("@/lib/console/mirror/store");
    const { mirrorSummary } = await import("@/lib/console/mirror/list");
    const { sql } = await import("drizzle-orm");
    const { mirrorCompletedVolume, mirrorStatusCounts } = await import("./overview");
    const db = await getDatabase();
    await db.execute(sql`delete from console.search_invoices`);
    const statuses = ["completed", "pending", "completed", "expired", "completed"];
    const invoices = Array.from({ length: 120 }, (_, n) =>
      invoice(
        n,
        statuses[n % statuses.length],
        now.getTime() - (n % 40) * DAY * 0.7 - n * 60_000,
        `${n}.${n % 100}1`,
        n % 17 ? "EUR" : "USD",
      ),
    );
    await indexInvoices(db, invoices);
    const totals = async (view: object) =>
      mirrorSummary(db, { page: 1, page_size: 1, sort_by: "created_at" as const, sort_order: "desc" as const, ...view });
    const period = resolvePeriod({ period: "30d", from: null, to: null, bucket: null }, "Europe/Berlin", now);

    const { list } = provider(invoices);
    expect(await mirrorStatusCounts(totals, period)).toEqual(await statusCounts(list, period));
    const fromMirror = await mirrorCompletedVolume(totals, period, { now: now.getTime() });
    const walked = await completedVolume(list, period, { now: now.getTime() });
    expect(fromMirror.points).toEqual(walked.points);
    expect(fromMirror).toMatchObject({ kind: "sums", completed: walked.completed, totalEur: walked.totalEur, notSummed: walked.notSummed });
  });
});
