import "server-only";
import { and, count, desc, eq, gte, ilike, inArray, lt, max, or, type SQL, sql } from "drizzle-orm";
import { auditCheckpoints, auditLog } from "@/lib/console/schema";
import type { ActivityEntry, ActivityList, ActivityQuery } from "@/lib/contract/activity";
import { addDays, startOfDay } from "@/lib/contract/time-zone";
import type { Db } from "@/lib/platform/db";

/**
 * The activity log as a view: every audit entry, newest first (by the chain's number, the order they were
 * written in), filtered by person, kinds, target, business days and text in the reason. Each filter has an
 * index that ends in `seq` (lib/console/schema.ts), so a page is a walk down one index.
 */
export function activityWhere(query: ActivityQuery, businessTimeZone: string): SQL | undefined {
  const conditions: (SQL | undefined)[] = [];
  if (query.actor) conditions.push(eq(auditLog.actorEmail, query.actor.toLowerCase()));
  if (query.action.length) conditions.push(inArray(auditLog.action, query.action));
  if (query.target) {
    // An invoice id alone means that invoice's entries; anything with a kind ("user:…") is a target as stored.
    conditions.push(
      query.target.includes(":") ? eq(auditLog.target, query.target) : inArray(auditLog.target, [`invoice:${query.target}`, query.target]),
    );
  }
  if (query.after) conditions.push(gte(auditLog.at, new Date(startOfDay(query.after, businessTimeZone))));
  if (query.before) conditions.push(lt(auditLog.at, new Date(startOfDay(addDays(query.before, 1), businessTimeZone))));
  if (query.q) {
    const pattern = `%${query.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    conditions.push(or(ilike(sql`${auditLog.detail}->>'reason'`, pattern), ilike(sql`${auditLog.detail}->>'comment'`, pattern)));
  }
  return conditions.length ? and(...conditions) : undefined;
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

/** How many entries the view holds. Unfiltered, the chain's numbers say it without reading the entries. */
async function total(db: Db, where: SQL | undefined): Promise<number> {
  if (!where) {
    const [row] = await db
      .select({
        n: sql<string>`coalesce((select max(${auditLog.seq}) from ${auditLog}), 0) - coalesce((select max(${auditCheckpoints.seq}) from ${auditCheckpoints}), 0)`,
      })
      .from(sql`(select 1) as one`);
    return Math.max(0, Number(row.n));
  }
  const [row] = await db.select({ n: count() }).from(auditLog).where(where);
  return row.n;
}

export async function listActivity(db: Db, query: ActivityQuery, businessTimeZone: string): Promise<ActivityList> {
  const where = activityWhere(query, businessTimeZone);
  const offset = (query.page - 1) * query.page_size;
  const [records, rows] = await Promise.all([
    total(db, where),
    db.select().from(auditLog).where(where).orderBy(desc(auditLog.seq)).limit(query.page_size).offset(offset),
  ]);
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
