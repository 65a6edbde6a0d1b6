import "server-only";
import { and, count, desc, eq, gte, inArray, lt, max, type SQL, sql } from "drizzle-orm";
import { wholeInvoiceId } from "@/lib/console/mirror/whole-invoice-id";
import { auditCheckpoints, auditLog } from "@/lib/console/schema";
import type { ActivityEntry, ActivityList, ActivityQuery } from "@/lib/contract/activity";
import { paginationOf } from "@/lib/contract/invoice";
import { addDays, startOfDay } from "@/lib/contract/time-zone";
import type { Db } from "@/lib/platform/db";
import { type RollupCount, rollupCount, withinBounds } from "./counts";
import { locatedBy, locatorsAreExact, matchingTextLocators, textCondition, textMatches } from "./texts";

/**
 * The activity log as a view: every audit entry, newest first (by the chain's number, the order they were
 * written in), filtered by person, kinds, target, business days and text in the reason or a decision's reason. This is the
 * filter on the log itself; listActivity answers exactly what it selects, by whichever path is cheapest.
 */
export function activityWhere(query: ActivityQuery, businessTimeZone: string): SQL | undefined {
  return and(otherFilters(query, businessTimeZone), query.q ? textCondition(query.q) : undefined);
}

/** Every filter but the text. */
function otherFilters(query: ActivityQuery, businessTimeZone: string): SQL | undefined {
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

type Page = { records: number; rows: (typeof auditLog.$inferSelect)[] };

/**
 * A page and its exact count, in one snapshot. The count comes from wherever it is cheapest: the chain's numbers
 * (no filter), the rollups (person, kinds, days: ./counts.ts; the text alone: ./texts.ts), or counting the
 * entries in an index (a target; the text with other filters). Knowing it first also picks the page's path: a walk
 * down an index, kept within the days' numbers, or, when few entries match, gathering them and sorting.
 */
async function page(db: Db, query: ActivityQuery, businessTimeZone: string): Promise<Page> {
  const where = activityWhere(query, businessTimeZone);
  const offset = (query.page - 1) * query.page_size;
  // The page's numbers first (from an index alone, where one holds every filter: skipping a deep offset reads no
  // entries), then its entries.
  const walk = async (records: number, ...more: (SQL | undefined)[]): Promise<Page> => ({
    records,
    rows:
      offset >= records
        ? []
        : await db
            .select()
            .from(auditLog)
            .where(
              inArray(
                auditLog.seq,
                db
                  .select({ seq: auditLog.seq })
                  .from(auditLog)
                  .where(and(where, ...more))
                  .orderBy(desc(auditLog.seq))
                  .limit(query.page_size)
                  .offset(offset),
              ),
            )
            .orderBy(desc(auditLog.seq)),
  });
  const { from, to } = dayRange(query, businessTimeZone);
  const actor = query.actor?.toLowerCase();
  const rollable = actor !== undefined || query.action.length > 0 || from !== undefined || to !== undefined;
  const rollup = rollable ? await rollupCount(db, { actor, actions: query.action, from, to }) : undefined;
  if (rollup && rollup.lowSeq === null) return { records: 0, rows: [] };
  const bounds = rollup && withinBounds(rollup);

  if (query.q) return textPage(db, query, businessTimeZone, rollup, walk);
  if (query.target) {
    const [{ n }] = await db.select({ n: count() }).from(auditLog).where(and(where, bounds));
    return walk(n, bounds);
  }
  if (rollup) return walk(rollup.n, bounds);
  const [{ entries }] = await db.select({ entries: entriesInLog() }).from(sql`(select 1) as one`);
  return walk(Math.max(0, Number(entries)));
}

/**
 * When the text filter reads which index (tests set them low to walk every path). At most `maxLocators` locators
 * are passed to the database at once. From bench:audit's plans: one index descent per locator costs about as much
 * as reading `entriesPerLocator` entries of the other filters from their index. Other filters with up to
 * `smallFilter` entries (or a target's few) are read whole, without first asking how common the text is: that
 * question costs about as much as the reading.
 */
export const textPlan = { maxLocators: 5_000, entriesPerLocator: 15, smallFilter: 100_000 };

/**
 * The text filter's page. Alone, its count is the pairs' (./texts.ts); with other filters, their entries are read
 * from their index and those holding a matching pair's locator counted (the whole text filter then applied to
 * those). Rare texts are found the other way round, from their locators.
 */
async function textPage(
  db: Db,
  query: ActivityQuery,
  businessTimeZone: string,
  rollup: RollupCount | undefined,
  walk: (records: number) => Promise<Page>,
): Promise<Page> {
  const q = query.q!;
  // Read the entries to apply the text itself only when a locator may be shared (./texts.ts).
  const recheck = (await locatorsAreExact(db)) ? undefined : activityWhere(query, businessTimeZone);
  const others = and(otherFilters(query, businessTimeZone), rollup && withinBounds(rollup));
  const smallFilter = query.target !== undefined || (rollup !== undefined && rollup.n <= textPlan.smallFilter);
  if (smallFilter) return gather(db, and(others, inMatchingTexts), recheck, query, q);
  const text = await textMatches(db, q, textPlan.maxLocators);
  if (!text.n) return { records: 0, rows: [] };
  if (!rollup) {
    // The text alone: a common text is found soon by the walk, a rare one by its locators.
    const [{ entries }] = await db.select({ entries: entriesInLog() }).from(sql`(select 1) as one`);
    const walked = (((query.page - 1) * query.page_size + query.page_size) * Number(entries)) / text.n;
    return text.locators && text.n < walked ? gather(db, locatedBy(text.locators), recheck, query) : walk(text.n);
  }
  const located = text.locators && text.pairs * textPlan.entriesPerLocator < rollup.n;
  return located
    ? gather(db, and(others, locatedBy(text.locators!)), recheck, query)
    : gather(db, and(others, inMatchingTexts), recheck, query, q);
}

/**
 * The entries that pass `near` (read from an index, without the entries themselves; with `recheck`, those of them
 * that pass it too), counted, and the page's taken from them: one statement, then the page's entries. With `text`,
 * `near` may ask whether an entry's locator is among the matching texts' (inMatchingTexts): those are gathered once,
 * into a hash, so the planner cannot choose to look each entry's text up in turn.
 */
async function gather(db: Db, near: SQL | undefined, recheck: SQL | undefined, query: ActivityQuery, text?: string): Promise<Page> {
  const candidates = sql`select ${auditLog.seq} as seq from ${auditLog} where ${near ?? sql`true`}`;
  const result = (await db.execute(sql`
    with ${sql.raw(MATCHING_TEXTS)} as materialized (${text === undefined ? sql`select null::bigint as locator where false` : matchingTextLocators(text)}),
    matching as materialized (${
      recheck
        ? sql`select ${auditLog.seq} as seq from ${auditLog} where ${auditLog.seq} = any(array(${candidates})) and ${recheck}`
        : candidates
    })
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

// `+ 0`: not through audit_log_text_idx, a lookup per matching text, which the planner would misjudge as cheap.
const MATCHING_TEXTS = "matching_texts";
const inMatchingTexts = sql`(${auditLog.textLocator} + 0) in (select locator from ${sql.raw(MATCHING_TEXTS)})`;

/**
 * The view's target as the log files it: an email is the person's "user:" target; an order id or an invoice id's
 * tail, typed where the tables show them, is read as its invoice's whole id when the console's index knows one
 * invoice by it.
 */
async function filedTarget(db: Db, query: ActivityQuery): Promise<ActivityQuery> {
  if (!query.target || query.target.includes(":")) return query;
  const invoice = await wholeInvoiceId(db, query.target);
  // Not an invoice the index knows, and written like an email: a person, whose entries are filed as "user:…".
  if (invoice === query.target && /^[^@\s]+@[^@\s]+$/.test(query.target)) return { ...query, target: `user:${query.target.toLowerCase()}` };
  return { ...query, target: invoice };
}

export async function listActivity(db: Db, viewed: ActivityQuery, businessTimeZone: string): Promise<ActivityList> {
  const query = await filedTarget(db, viewed);
  const { records, rows } = await inOneSnapshot(db, (tx) => page(tx, query, businessTimeZone));
  return { items: rows.map(toEntry), pagination: paginationOf(query.page, query.page_size, records, { atLeastOnePage: true }) };
}

/**
 * How many entries a view holds, and the log's last entry number, read in one snapshot: an export's count and the
 * bound of its walk (`through`), so the file holds exactly the entries counted, whatever is written meanwhile.
 */
export async function activityCount(db: Db, viewed: ActivityQuery, businessTimeZone: string): Promise<{ total: number; head: number }> {
  const query = await filedTarget(db, viewed);
  return inOneSnapshot(db, async (tx) => {
    const [{ head }] = await tx.select({ head: max(auditLog.seq) }).from(auditLog);
    const { records } = await page(tx, { ...query, page: 1, page_size: 1 }, businessTimeZone);
    return { total: records, head: head ?? 0 };
  });
}

/** Reads that must agree (a count and its page, a count and its bound), read only in one repeatable-read snapshot. */
function inOneSnapshot<T>(db: Db, read: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction(
    async (tx) => {
      // These reads walk an index at most: starting parallel workers costs them more time than it saves.
      await tx.execute(sql`set local max_parallel_workers_per_gather = 0`);
      return read(tx as unknown as Db);
    },
    { isolationLevel: "repeatable read", accessMode: "read only" },
  );
}

/** The view's entries numbered up to `through`, newest first, a batch at a time, each after the last one's number: for the export. */
export async function* walkActivity(
  db: Db,
  viewed: ActivityQuery,
  businessTimeZone: string,
  through: number,
  batch = 1000,
): AsyncGenerator<ActivityEntry[]> {
  const query = await filedTarget(db, viewed);
  const where = activityWhere(query, businessTimeZone);
  let below = through + 1;
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
