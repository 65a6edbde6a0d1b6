import "server-only";
import { and, eq, gt, gte, lt, lte, type SQL, sql } from "drizzle-orm";
import { isoDay, utcMidnight } from "@/lib/contract/utc-day";
import type { Db } from "@/lib/platform/db";
import { invoiceCounts, invoices } from "@/lib/sandbox/schema";

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
/**
 * The last UTC day the contract's instants reach (lib/contract: years 0001–9999). The day after it, year
 * 10000, is written `+010000-01-01` by JavaScript, which PostgreSQL does not read: no bound, day or edge of a
 * range may go past this day's end.
 */
const LAST_DAY = Date.parse("9999-12-31T00:00:00.000Z");

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
export type RangeParts = { whole?: { from?: string; to?: string }; edges: Edge[] };

/**
 * A partial day, counted in the index: either its own stretch (`minusDay` unset), or its whole day from the
 * rollup less the rest of that day (`range` is then that rest), whichever part of the day is the shorter
 * walk. A range that ends now has nothing after it today: its last day costs nothing to count.
 */
export type Edge = { range: SQL; minusDay?: string };

export function rangeParts(f: InvoiceFilter): RangeParts {
  // Whole days: from the first midnight after `createdAfter` up to (not including) the midnight before
  // `createdBefore`. Everything else in the range is edge, at most two days' worth.
  const wholeFrom = f.createdAfter ? new Date(utcMidnight(f.createdAfter) + DAY) : undefined;
  const wholeTo = f.createdBefore ? new Date(utcMidnight(f.createdBefore)) : undefined;
  const after = f.createdAfter ? gt(invoices.createdAt, f.createdAfter) : undefined;
  const before = f.createdBefore ? lt(invoices.createdAt, f.createdBefore) : undefined;
  // No whole day inside, or none after createdAfter's day because that day is the last one: it is all edge.
  if ((wholeFrom && wholeTo && wholeFrom >= wholeTo) || (wholeFrom && wholeFrom.getTime() > LAST_DAY))
    return { edges: [{ range: and(after, before)! }] };
  const edges: Edge[] = [];
  if (f.createdAfter && wholeFrom) {
    // (createdAfter, next midnight): or its day less [midnight, createdAfter].
    const dayStart = new Date(wholeFrom.getTime() - DAY);
    edges.push(
      wholeFrom.getTime() - f.createdAfter.getTime() <= DAY / 2
        ? { range: and(after, lt(invoices.createdAt, wholeFrom))! }
        : { range: and(gte(invoices.createdAt, dayStart), lte(invoices.createdAt, f.createdAfter))!, minusDay: isoDay(dayStart) },
    );
  }
  if (f.createdBefore && wholeTo) {
    // [midnight, createdBefore): or its day less [createdBefore, next midnight) — unless there is no next midnight.
    edges.push(
      f.createdBefore.getTime() - wholeTo.getTime() <= DAY / 2 || wholeTo.getTime() >= LAST_DAY
        ? { range: and(gte(invoices.createdAt, wholeTo), before)! }
        : {
            range: and(gte(invoices.createdAt, f.createdBefore), lt(invoices.createdAt, new Date(wholeTo.getTime() + DAY)))!,
            minusDay: isoDay(wholeTo),
          },
    );
  }
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
  const rollup = (days: SQL | undefined) =>
    sql`(${db
      .select({ n: sql<string>`coalesce(sum(${invoiceCounts.count}), 0)` })
      .from(invoiceCounts)
      .where(
        and(
          eq(invoiceCounts.merchantId, f.merchantId),
          f.status ? eq(invoiceCounts.status, f.status) : undefined,
          f.currency ? eq(invoiceCounts.currency, f.currency) : undefined,
          days,
        ),
      )})`;
  const parts: SQL[] = [];
  if (whole) {
    // Without a range, the all-time rows (day = infinity); with one, the whole days inside it.
    parts.push(
      ranged
        ? rollup(and(whole.from ? gte(invoiceCounts.day, whole.from) : undefined, lt(invoiceCounts.day, whole.to ?? "infinity")))
        : rollup(eq(invoiceCounts.day, "infinity")),
    );
  }
  for (const { range, minusDay } of edges) {
    const counted = sql`(${db
      .select({ n: sql`count(*)` })
      .from(invoices)
      .where(and(invoiceFilterSql(base), range))})`;
    parts.push(minusDay ? sql`(${rollup(eq(invoiceCounts.day, minusDay))} - ${counted})` : counted);
  }
  // One statement, one round trip. node-postgres and PGlite both answer with `rows`.
  const result = (await db.execute(sql`select (${sql.join(parts, sql` + `)})::bigint as n`)) as unknown as { rows: { n: string }[] };
  return Number(result.rows[0].n);
}
