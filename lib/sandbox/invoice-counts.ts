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
 * How many invoices match, exactly, without counting them: a sum over the rollup's days that lie wholly
 * inside the created range, plus the invoices of the (at most two) partial days at its edges, counted in an
 * index. Run it in the same transaction as the page's query and both describe one snapshot.
 */
export async function countInvoices(db: Db, f: InvoiceFilter): Promise<number> {
  // Whole days: from the first midnight after `createdAfter` up to (not including) the midnight before
  // `createdBefore`. Everything else in the range is edge, at most two days' worth.
  const wholeFrom = f.createdAfter ? new Date(utcMidnight(f.createdAfter) + DAY) : undefined;
  const wholeTo = f.createdBefore ? new Date(utcMidnight(f.createdBefore)) : undefined;
  const base = { ...f, createdAfter: undefined, createdBefore: undefined };

  if (wholeFrom && wholeTo && wholeFrom >= wholeTo) {
    // No whole day inside: the range spans at most two partial days; count them in the index.
    return Number((await db.select({ n: sql<string>`count(*)` }).from(invoices).where(invoiceFilterSql(f)))[0].n);
  }

  const rollup = db
    .select({ n: sql<string>`coalesce(sum(${invoiceCounts.count}), 0)` })
    .from(invoiceCounts)
    .where(
      and(
        eq(invoiceCounts.merchantId, f.merchantId),
        f.status ? eq(invoiceCounts.status, f.status) : undefined,
        f.currency ? eq(invoiceCounts.currency, f.currency) : undefined,
        // Without a range, the all-time rows (day = infinity); with one, the whole days inside it.
        f.createdAfter || f.createdBefore ? undefined : eq(invoiceCounts.day, "infinity"),
        wholeFrom ? gte(invoiceCounts.day, isoDay(wholeFrom)) : undefined,
        f.createdAfter || f.createdBefore ? lt(invoiceCounts.day, wholeTo ? isoDay(wholeTo) : "infinity") : undefined,
      ),
    );
  const edge = (range: SQL) => sql`(${db.select({ n: sql`count(*)` }).from(invoices).where(and(invoiceFilterSql(base), range))})`;
  const parts: SQL[] = [sql`(${rollup})`];
  if (f.createdAfter && wholeFrom) parts.push(edge(and(gt(invoices.createdAt, f.createdAfter), lt(invoices.createdAt, wholeFrom))!));
  if (f.createdBefore && wholeTo) parts.push(edge(and(gte(invoices.createdAt, wholeTo), lt(invoices.createdAt, f.createdBefore))!));
  // One statement, one round trip. node-postgres and PGlite both answer with `rows`.
  const result = (await db.execute(sql`select (${sql.join(parts, sql` + `)})::bigint as n`)) as unknown as { rows: { n: string }[] };
  const n = result.rows[0].n;
  return Number(n);
}
