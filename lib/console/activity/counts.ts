import "server-only";
import { and, count, eq, gte, inArray, lt, lte, type SQL, sql } from "drizzle-orm";
import { auditCounts, auditLog } from "@/lib/console/schema";
import type { Db } from "@/lib/platform/db";

/*
 * The activity view's counts by person, kind and business days, from console.audit_counts (drizzle/0022): entries per
 * UTC day, person and kind, and all time, kept by triggers in the transaction of every write. A range of business
 * days is the whole UTC days inside it, summed from the rollup, and at most two partial days at its edges, counted
 * in the log.
 */

const DAY = 86_400_000;

/** Who and when: the filters the rollup knows. `from` and `to` are instants (ms), `to` excluded, either open. */
export type RollupFilter = { actor?: string; actions: string[]; from?: number; to?: number };

/** How many entries match, exactly, and bounds of their numbers (null when none match). */
export type RollupCount = { n: number; lowSeq: number | null; highSeq: number | null };

/** The UTC day of an instant as PostgreSQL reads a date, years past 9999 included (the last business day allowed). */
function isoDay(t: number): string {
  const d = new Date(t);
  const two = (n: number) => String(n).padStart(2, "0");
  return `${String(d.getUTCFullYear()).padStart(4, "0")}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())}`;
}

/**
 * One statement: the whole days' sum, the edges' counts, and the least and greatest number of every day the range
 * touches (edges included, so every matching entry lies within them). Run it in the page's transaction.
 */
export async function rollupCount(db: Db, f: RollupFilter): Promise<RollupCount> {
  const who = and(
    f.actor !== undefined ? eq(auditCounts.actorEmail, f.actor) : undefined,
    f.actions.length ? inArray(auditCounts.action, f.actions) : undefined,
  );
  const logWho = and(
    f.actor !== undefined ? eq(auditLog.actorEmail, f.actor) : undefined,
    f.actions.length ? inArray(auditLog.action, f.actions) : undefined,
  );
  // Without days, the all-time rows ('infinity'); with them, the days' own.
  const days = (from: number | undefined, to: number | undefined) =>
    from === undefined && to === undefined
      ? and(who, eq(auditCounts.day, "infinity"))
      : and(
          who,
          from !== undefined ? gte(auditCounts.day, isoDay(from)) : undefined,
          lt(auditCounts.day, to !== undefined ? isoDay(to) : "infinity"),
        );
  const counted = (from: number, to: number) =>
    sql`(${db
      .select({ n: count() })
      .from(auditLog)
      .where(and(logWho, gte(auditLog.at, new Date(from)), lt(auditLog.at, new Date(to))))})`;

  // Whole days: from the first UTC midnight at or after `from` to the last at or before `to`.
  const wholeFrom = f.from === undefined ? undefined : Math.ceil(f.from / DAY) * DAY;
  const wholeTo = f.to === undefined ? undefined : Math.floor(f.to / DAY) * DAY;
  const parts: SQL[] = [];
  if (f.from !== undefined && f.to !== undefined && wholeFrom! >= wholeTo!) {
    parts.push(counted(f.from, f.to));
  } else {
    parts.push(
      sql`(${db
        .select({ n: sql`coalesce(sum(${auditCounts.n}), 0)` })
        .from(auditCounts)
        .where(days(wholeFrom, wholeTo))})`,
    );
    if (f.from !== undefined && f.from < wholeFrom!) parts.push(counted(f.from, wholeFrom!));
    if (f.to !== undefined && wholeTo! < f.to) parts.push(counted(wholeTo!, f.to));
  }
  const touched = days(
    f.from === undefined ? undefined : Math.floor(f.from / DAY) * DAY,
    f.to === undefined ? undefined : Math.ceil(f.to / DAY) * DAY,
  );
  const result = (await db.execute(sql`
    select (${sql.join(parts, sql` + `)})::text as n, bounds.low::text as low, bounds.high::text as high
    from (select min(${auditCounts.minSeq}) as low, max(${auditCounts.maxSeq}) as high from ${auditCounts} where ${touched ?? sql`true`}) as bounds`)) as unknown as {
    rows: { n: string; low: string | null; high: string | null }[];
  };
  const [row] = result.rows;
  return { n: Number(row.n), lowSeq: row.low === null ? null : Number(row.low), highSeq: row.high === null ? null : Number(row.high) };
}

/** The entries' numbers within the bounds: lets a page's walk down an index start and stop where the days are. */
export function withinBounds(c: RollupCount): SQL | undefined {
  if (c.lowSeq === null || c.highSeq === null) return undefined;
  return and(gte(auditLog.seq, c.lowSeq), lte(auditLog.seq, c.highSeq));
}
