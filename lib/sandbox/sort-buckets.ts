import "server-only";
import { and, eq, gte, lt, ne, type SQL, sql } from "drizzle-orm";
import type { InvoiceListQuery } from "@/lib/contract";
import type { Db } from "@/lib/platform/db";
import { invoiceCounts, invoiceDayBuckets, invoiceSortBuckets, invoices } from "@/lib/sandbox/schema";
import { type InvoiceFilter, rangeParts } from "./invoice-counts";

type SortBy = InvoiceListQuery["sort_by"];

/** Where an ascending walk to a deep offset can start: at the first invoice whose key is ≥ `from`, skipping `skip`. */
export type WalkStart = { from: SQL; skip: number };

/**
 * The bucket that holds the invoice at `offset` (0-based, ascending order) and the invoices before it, so that
 * the walk to a deep page starts at that bucket instead of at the first invoice. The rows before a
 * bucket are exactly those of the buckets below it (drizzle/0008), so the result is exact in the caller's
 * snapshot. Undefined where the caller's walk from the nearer end is short enough already: a created range
 * sorted by created_at or updated_at is one stretch of its index, and a range with a status or currency
 * narrows the walk to that filter's index.
 */
export async function walkStart(db: Db, filter: InvoiceFilter, sortBy: SortBy, offset: number): Promise<WalkStart | undefined> {
  const counts = bucketCounts(filter, sortBy);
  if (!counts) return undefined;
  const result = (await db.execute(sql`
    select bucket::text as bucket, before::bigint as before from (
      select bucket, sum(n) over (order by bucket) - n as before, n
      from (select bucket, sum(count) as n from (${counts}) as c group by bucket) as per_bucket
    ) as cumulative
    where before <= ${offset} and before + n > ${offset}`)) as unknown as { rows: { bucket: string; before: string }[] };
  const row = result.rows[0];
  if (!row) return undefined;
  return { from: bucketStart(sortBy, row.bucket), skip: offset - Number(row.before) };
}

/** Per bucket of the sort key, how many of the filter's invoices it holds (several rows a bucket, to be summed). */
function bucketCounts(f: InvoiceFilter, sortBy: SortBy): SQL | undefined {
  if (f.createdAfter || f.createdBefore) {
    return (sortBy === "fiat_amount" || sortBy === "crypto_amount") && !f.status && !f.currency ? rangeBucketCounts(f, sortBy) : undefined;
  }
  if (sortBy === "created_at") {
    // Days of created_at are invoice_counts' own (without its all-time rows).
    return sql`select extract(epoch from ${invoiceCounts.day}) as bucket, ${invoiceCounts.count} as count from ${invoiceCounts} where ${and(
      eq(invoiceCounts.merchantId, f.merchantId),
      ne(invoiceCounts.day, "infinity"),
      f.status ? eq(invoiceCounts.status, f.status) : undefined,
      f.currency ? eq(invoiceCounts.currency, f.currency) : undefined,
    )}`;
  }
  return sql`select ${invoiceSortBuckets.bucket} as bucket, ${invoiceSortBuckets.count} as count from ${invoiceSortBuckets} where ${and(
    eq(invoiceSortBuckets.merchantId, f.merchantId),
    eq(invoiceSortBuckets.sortBy, sortBy),
    f.status ? eq(invoiceSortBuckets.status, f.status) : undefined,
    f.currency ? eq(invoiceSortBuckets.currency, f.currency) : undefined,
  )}`;
}

/** An amount's buckets within a created range: the whole days' from invoice_day_buckets, the edge days' counted. */
function rangeBucketCounts(f: InvoiceFilter, sortBy: "fiat_amount" | "crypto_amount"): SQL {
  const { whole, edges } = rangeParts(f);
  // The edge days' invoices, each in its bucket (a column in the created_at index: no table read); an edge
  // counted as its whole day less the rest of it takes that day's buckets and subtracts the rest's.
  const bucket = sortBy === "fiat_amount" ? invoices.fiatBucket : invoices.cryptoBucket;
  const dayBuckets = (days: SQL | undefined) =>
    sql`select ${invoiceDayBuckets.bucket} as bucket, ${invoiceDayBuckets.count} as count from ${invoiceDayBuckets} where ${and(
      eq(invoiceDayBuckets.merchantId, f.merchantId),
      eq(invoiceDayBuckets.sortBy, sortBy),
      days,
    )}`;
  const parts = edges.flatMap(({ range, minusDay }) => {
    const counted = (sign: 1 | -1) =>
      sql`select ${bucket} as bucket, ${sql.raw(sign < 0 ? "-" : "")}count(*) as count from ${invoices} where ${and(eq(invoices.merchantId, f.merchantId), range)} group by 1`;
    return minusDay ? [dayBuckets(eq(invoiceDayBuckets.day, minusDay)), counted(-1)] : [counted(1)];
  });
  if (whole)
    parts.push(
      dayBuckets(
        and(whole.from ? gte(invoiceDayBuckets.day, whole.from) : undefined, whole.to ? lt(invoiceDayBuckets.day, whole.to) : undefined),
      ),
    );
  return sql.join(parts, sql` union all `);
}

/** "key ≥ the bucket's smallest key": a day's midnight (epoch seconds) for the dates, the cut amount for amounts. */
function bucketStart(sortBy: SortBy, bucket: string): SQL {
  switch (sortBy) {
    case "created_at":
      return sql`${invoices.createdAt} >= to_timestamp(${bucket}::numeric)`;
    case "updated_at":
      return sql`${invoices.updatedAt} >= to_timestamp(${bucket}::numeric)`;
    case "fiat_amount":
      return sql`${invoices.fiatAmount} >= ${bucket}::numeric`;
    case "crypto_amount":
      return sql`${invoices.cryptoAmount} >= ${bucket}::numeric`;
  }
}
