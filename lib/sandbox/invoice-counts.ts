import "server-only";
import { and, eq, gt, gte, lt, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { invoiceCounts, invoices } from "@/lib/db/schema";
import { isoDay, utcMidnight } from "@/lib/utc-day";

/** The filters of GET /invoices, as the list applies them. */
export type InvoiceFilter = {
  merchantId: string;
  status?: string;
  currency?: string;
  /** Exclusive bounds on `created_at`, as the spec's created_after / created_before. */
  createdAfter?: Date;
  createdBefore?: Date;
};

const DAY = 86_400_000;

/** The rows GET /invoices selects: the merchant's, narrowed by each filter given. */
export function invoiceFilterSql(f: InvoiceFilter): SQL {
  return and(
    eq(invoices.merchantId, f.merchantId),
    f.status ? eq(invoices.status, f.status) : undefined,
    f.currency ? eq(invoices.currency, f.currency) : undefined,
    f.createdAfter ? gt(invoices.createdAt, f.createdAfter) : undefined,
    f.createdBefore ? lt(invoices.createdAt, f.createdBefore) : undefined,
  )!;
}

/**
 * A created range cut into whole UTC days and the partial days at its edges: the whole days' invoices are
 * counted in a rollup (by its `day`), the edges' in the invoices' own index. `whole` is undefined when no
 * whole day lies inside the range; then the whole range is edge.
 */
export type RangeParts = { whole?: { from?: string; to?: string }; edges: SQL[] };

export function rangeParts(f: InvoiceFilter): RangeParts {
  // Whole days: from the first midnight after `createdAfter` up to (not including) the midnight before
  // `createdBefore`. Everything else in the range is edge, at most two days' worth.
  const wholeFrom = f.createdAfter ? new Date(utcMidnight(f.createdAfter) + DAY) : undefined;
  const wholeTo = f.createdBefore ? new Date(utcMidnight(f.createdBefore)) : undefined;
  const after = f.createdAfter ? gt(invoices.createdAt, f.createdAfter) : undefined;
  const before = f.createdBefore ? lt(invoices.createdAt, f.createdBefore) : undefined;
  if (wholeFrom && wholeTo && wholeFrom >= wholeTo) return { edges: [and(after, before)!] };
  const edges: SQL[] = [];
  if (after && wholeFrom) edges.push(and(after, lt(invoices.createdAt, wholeFrom))!);
  if (before && wholeTo) edges.push(and(gte(invoices.createdAt, wholeTo), before)!);
  return { whole: { from: wholeFrom && isoDay(wholeFrom), to: wholeTo && isoDay(wholeTo) }, edges };
}

/**
 * How many invoices match, exactly, without counting them: a sum over the rollup's days that lie wholly
 * inside the created range, plus the invoices of the (at most two) partial days at its edges, counted in an
 * index. Run it in the same transaction as the page's query and both describe one snapshot.
 */
export async function countInvoices(db: Db, f: InvoiceFilter): Promise<number> {
  const ranged = !!(f.createdAfter || f.createdBefore);
  const { whole, edges } = ranged ? rangeParts(f) : { whole: {}, edges: [] };
  const base = { ...f, createdAfter: undefined, createdBefore: undefined };
  const parts: SQL[] = [];
  if (whole) {
    const rollup = db
      .select({ n: sql<string>`coalesce(sum(${invoiceCounts.count}), 0)` })
      .from(invoiceCounts)
      .where(
        and(
          eq(invoiceCounts.merchantId, f.merchantId),
          f.status ? eq(invoiceCounts.status, f.status) : undefined,
          f.currency ? eq(invoiceCounts.currency, f.currency) : undefined,
          // Without a range, the all-time rows (day = infinity); with one, the whole days inside it.
          ranged ? undefined : eq(invoiceCounts.day, "infinity"),
          whole.from ? gte(invoiceCounts.day, whole.from) : undefined,
          ranged ? lt(invoiceCounts.day, whole.to ?? "infinity") : undefined,
        ),
      );
    parts.push(sql`(${rollup})`);
  }
  for (const range of edges) parts.push(sql`(${db.select({ n: sql`count(*)` }).from(invoices).where(and(invoiceFilterSql(base), range))})`);
  // One statement, one round trip. node-postgres and PGlite both answer with `rows`.
  const result = (await db.execute(sql`select (${sql.join(parts, sql` + `)})::bigint as n`)) as unknown as { rows: { n: string }[] };
  return Number(result.rows[0].n);
}
