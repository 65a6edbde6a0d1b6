import "server-only";
import { and, count, desc, eq, gte, inArray, lt, max, type SQL, sql } from "drizzle-orm";
import { auditCheckpoints, auditLog } from "@/lib/console/schema";
import type { ActivityEntry, ActivityList, ActivityQuery } from "@/lib/contract/activity";
import { addDays, startOfDay } from "@/lib/contract/time-zone";
import type { Db } from "@/lib/platform/db";
import { rollupCount, withinBounds } from "./counts";
import { locatedBy, textCondition, textMatches } from "./texts";

/**
 * The activity log as a view: every audit entry, newest first (by the chain's number, the order they were
 * written in), filtered by person, kinds, target, business days and text in the reason. Each filter has an
 * index that ends in `seq` (lib/console/schema.ts), so a page is a walk down one index.
 */
export function activityWhere(query: ActivityQuery, businessTimeZone: string): SQL | undefined {
  const { from, to } = dayRange(query, businessTimeZone);
  const conditions: (SQL | undefined)[] = [];
  if (query.actor) conditions.push(eq(auditLog.actorEmail, query.actor.toLowerCase()));
  if (query.action.length) conditions.push(inArray(auditLog.action, query.action));
  if (query.target) {
    // An invoice id alone means that invoice's entries; anything with a kind ("user:…") is a target as stored.
    conditions.push(
      query.target.includes(":") ? eq(auditLog.target, query.target) : inArray(auditLog.target, [`invoice:${query.target}`, query.target]),
    );
  }
  if (from !== undefined) conditions.push(gte(auditLog.at, new Date(from)));
  if (to !== undefined) conditions.push(lt(auditLog.at, new Date(to)));
  if (query.q) conditions.push(textCondition(query.q));
  return conditions.length ? and(...conditions) : undefined;
}

/** The business days as instants: from the first one's midnight to the midnight after the last one (excluded). */
function dayRange(query: ActivityQuery, businessTimeZone: string): { from?: number; to?: number } {
  return {
    from: query.after ? startOfDay(query.after, businessTimeZone) : undefined,
    to: query.before ? startOfDay(addDays(query.before, 1), businessTimeZone) : undefined,
  };
}

export function toEntry(row: typeof auditLog.$inferSelect): ActivityEntry {
  const requestId = row.detail.request_id;
  return {
    seq: row.seq,
    at: row.at.toISOString(),
    actor_email: row.actorEmail,
    action: row.action,
    target: row.target,
    detail: row.detail,
    request_id: typeof requestId === "string" ? requestId : null,
  };
}

/** How many entries the log holds: the chain's numbers say it without reading the entries. */
function entriesInLog(): SQL<string> {
  return sql<string>`coalesce((select max(${auditLog.seq}) from ${auditLog}), 0) - coalesce((select max(${auditCheckpoints.seq}) from ${auditCheckpoints}), 0)`;
}

// A text that at most this many distinct texts hold is found through their locators rather than by a walk.
const MAX_LOCATORS = 5_000;

type Page = { records: number; rows: (typeof auditLog.$inferSelect)[] };

/**
 * A page and its exact count, in one snapshot. The count comes from wherever it is cheapest: the chain's numbers
 * (no filter), the rollups (person, kinds, days: ./counts.ts; text alone: ./texts.ts), or counting the entries
 * (a target, or text with other filters). Knowing it first also picks the page's path: a walk down an index, kept
 * within the days' numbers, or, when few entries match, gathering them all and sorting.
 */
async function page(db: Db, query: ActivityQuery, businessTimeZone: string): Promise<Page> {
  const where = activityWhere(query, businessTimeZone);
  const offset = (query.page - 1) * query.page_size;
  const walk = async (records: number, ...more: (SQL | undefined)[]): Promise<Page> => ({
    records,
    rows:
      offset >= records
        ? []
        : await db
            .select()
            .from(auditLog)
            .where(and(where, ...more))
            .orderBy(desc(auditLog.seq))
            .limit(query.page_size)
            .offset(offset),
  });
  const { from, to } = dayRange(query, businessTimeZone);
  const actor = query.actor?.toLowerCase();
  const rollable = actor !== undefined || query.action.length > 0 || from !== undefined || to !== undefined;
  const rollup = rollable ? await rollupCount(db, { actor, actions: query.action, from, to }) : undefined;
  if (rollup && rollup.lowSeq === null) return { records: 0, rows: [] };
  const bounds = rollup && withinBounds(rollup);

  if (query.q) {
    const text = await textMatches(db, query.q, MAX_LOCATORS);
    if (!text.n) return { records: 0, rows: [] };
    if (!rollup && !query.target) {
      // The text alone: its count is the rollup's; a common text is found soon by the walk, a rare one by its locators.
      const [{ n }] = await db.select({ n: entriesInLog() }).from(sql`(select 1) as one`);
      const walked = ((offset + query.page_size) * Number(n)) / text.n;
      return text.locators && text.n < walked ? gather(db, and(where, locatedBy(text.locators)), query) : walk(text.n);
    }
    // With other filters the entries are counted: those of the text, or those of the other filters, the fewer.
    const located = text.locators && !query.target && text.n < (rollup?.n ?? 0);
    return gather(db, and(where, bounds, located ? locatedBy(text.locators!) : undefined), query);
  }
  if (query.target) {
    const [{ n }] = await db.select({ n: count() }).from(auditLog).where(and(where, bounds));
    return walk(n, bounds);
  }
  if (rollup) return walk(rollup.n, bounds);
  const [{ n }] = await db.select({ n: entriesInLog() }).from(sql`(select 1) as one`);
  return walk(Math.max(0, Number(n)));
}

/** Every matching entry's number (an index's worth, no more), counted, and the page's taken from them: one statement. */
async function gather(db: Db, where: SQL | undefined, query: ActivityQuery): Promise<Page> {
  const result = (await db.execute(sql`
    with matching as materialized (select ${auditLog.seq} as seq from ${auditLog} where ${where ?? sql`true`})
    select (select count(*) from matching)::text as n,
      (select string_agg(seq::text, ',') from (select seq from matching order by seq desc
        limit ${query.page_size} offset ${(query.page - 1) * query.page_size}) as p) as page`)) as unknown as {
    rows: { n: string; page: string | null }[];
  };
  const [row] = result.rows;
  const seqs = row.page ? row.page.split(",").map(Number) : [];
  const rows = seqs.length ? await db.select().from(auditLog).where(inArray(auditLog.seq, seqs)).orderBy(desc(auditLog.seq)) : [];
  return { records: Number(row.n), rows };
}

export async function listActivity(db: Db, query: ActivityQuery, businessTimeZone: string): Promise<ActivityList> {
  // Read only, repeatable read: the count and the page describe one snapshot, whatever is written meanwhile.
  const { records, rows } = await db.transaction((tx) => page(tx, query, businessTimeZone), {
    isolationLevel: "repeatable read",
    accessMode: "read only",
  });
  const totalPages = Math.max(1, Math.ceil(records / query.page_size));
  return {
    items: rows.map(toEntry),
    pagination: {
      current_page: query.page,
      page_size: query.page_size,
      total_pages: totalPages,
      total_records: records,
      has_next: query.page < totalPages,
      has_previous: query.page > 1,
    },
  };
}

/** The view's entries, newest first, a batch at a time, each batch after the last one's number: for the export. */
export async function* walkActivity(db: Db, query: ActivityQuery, businessTimeZone: string, batch = 1000): AsyncGenerator<ActivityEntry[]> {
  const where = activityWhere(query, businessTimeZone);
  // Fixed before the first batch: entries written during the walk are not in the file.
  const [{ head }] = await db.select({ head: max(auditLog.seq) }).from(auditLog);
  let below = (head ?? 0) + 1;
  for (;;) {
    const rows = await db
      .select()
      .from(auditLog)
      .where(and(where, lt(auditLog.seq, below)))
      .orderBy(desc(auditLog.seq))
      .limit(batch);
    if (!rows.length) return;
    yield rows.map(toEntry);
    below = rows.at(-1)!.seq;
    if (rows.length < batch) return;
  }
}

/** The distinct people in the log, for the page's person filter (a small list: the console's people and "system"). */
export async function activityPeople(db: Db): Promise<string[]> {
  const result = await db.execute(
    sql`with recursive people as (
      (select ${auditLog.actorEmail} as email from ${auditLog} order by ${auditLog.actorEmail} limit 1)
      union all
      select (select ${auditLog.actorEmail} from ${auditLog} where ${auditLog.actorEmail} > people.email order by ${auditLog.actorEmail} limit 1)
      from people where people.email is not null
    ) select email from people where email is not null limit 500`,
  );
  return (result as unknown as { rows: { email: string }[] }).rows.map((r) => r.email);
}
