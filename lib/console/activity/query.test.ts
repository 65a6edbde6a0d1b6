import { count, desc, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditCheckpoints, auditLog, searchInvoices } from "@/lib/console/schema";
import { type ActivityQuery, activityQuerySchema } from "@/lib/contract/activity";
import { addDays } from "@/lib/contract/time-zone";
import { type Db, getDatabase } from "@/lib/platform/db";
import { seededRandom as random } from "@/test/seeded-random";
import { describeOnPostgres } from "@/test/use-postgres-database";
import { activityWhere, listActivity, textPlan, toEntry } from "./query";

/*
 * listActivity answers from rollups, bounds and locators (./counts.ts, ./texts.ts): its pages and counts must be
 * exactly those of the plain query (every matching entry counted, newest first, offset), for every filter and mix
 * of them, in time zones whose days are not UTC's, with entries whose `at` does not follow their number, texts in
 * mixed case and beyond ASCII, and after retention removed entries and after an entry was changed in the database.
 */

const rows = <T>(result: unknown) => (result as { rows: T[] }).rows;
const DAY = 86_400_000;
const FIRST = Date.parse("2025-03-01T00:00:00Z");
const PEOPLE = ["ana@example.com", "ben@example.com", "system"];
const KINDS = ["invoice.status_change", "sign_in", "approval.requested", "user.disabled"];
const TEXTS = [
  "Customer paid",
  "CUSTOMER asked",
  "Refund 100% done",
  "under_score",
  "back\\slash",
  "Émile à Zürich",
  "straße",
  "ÉMILE",
  "İstanbul",
  "",
];

/** Entries over 60 days; one in ten written "late" (its `at` earlier than entries before it in the chain). */
async function fill(db: Db, n: number, seed: number) {
  const r = random(seed);
  const pick = <T>(values: T[]) => values[Math.floor(r() * values.length)];
  for (let i = 0; i < n; i++) {
    const at = new Date(FIRST + (i / n) * 60 * DAY - (r() < 0.1 ? r() * 3 * DAY : 0));
    const action = pick(KINDS);
    const detail: Record<string, unknown> = {};
    if (r() < 0.6) detail.reason = pick(TEXTS) + (r() < 0.3 ? ` #${Math.floor(r() * 20)}` : "");
    if (r() < 0.2) detail.decision_reason = pick(TEXTS);
    if (r() < 0.05) detail.reason = null;
    await db.execute(sql`insert into console.audit_log (at, actor_email, action, target, detail)
      values (${at.toISOString()}::timestamptz, ${pick(PEOPLE)}, ${action}, ${`invoice:inv_${Math.floor(r() * 40)}`}, ${JSON.stringify(detail)}::jsonb)`);
  }
}

/** The plain query: what listActivity answered before the rollups (unfiltered, the count is the chain's numbers). */
async function plain(db: Db, query: ActivityQuery, timeZone: string) {
  const where = activityWhere(query, timeZone);
  const [{ n }] = where
    ? await db.select({ n: count() }).from(auditLog).where(where)
    : (
        await db
          .select({
            n: sql<string>`coalesce((select max(${auditLog.seq}) from ${auditLog}), 0) - coalesce((select max(${auditCheckpoints.seq}) from ${auditCheckpoints}), 0)`,
          })
          .from(sql`(select 1) as one`)
      ).map((row) => ({ n: Math.max(0, Number(row.n)) }));
  const page = await db
    .select()
    .from(auditLog)
    .where(where)
    .orderBy(desc(auditLog.seq))
    .limit(query.page_size)
    .offset((query.page - 1) * query.page_size);
  return { n, items: page.map(toEntry) };
}

function queries(seed: number, count: number): Record<string, string>[] {
  const r = random(seed);
  const pick = <T>(values: T[]) => values[Math.floor(r() * values.length)];
  const day = () => addDays("2025-02-27", Math.floor(r() * 66));
  const words = [
    "customer",
    "CUSTOMER",
    "Cust",
    "100%",
    "%",
    "_",
    "under_",
    "\\",
    "émile",
    "ÉMILE",
    "zürich",
    "STRASSE",
    "straße",
    "i̇stanbul",
    "#1",
    "zzz",
    " ",
  ];
  const out: Record<string, string>[] = [];
  for (let i = 0; i < count; i++) {
    const q: Record<string, string> = {};
    if (r() < 0.3) q.actor = pick([...PEOPLE, "ANA@example.com", "nobody@example.com"]);
    if (r() < 0.4) q.action = Array.from({ length: 1 + Math.floor(r() * 3) }, () => pick([...KINDS, "policy.changed"])).join(",");
    if (r() < 0.15) q.target = pick(["inv_3", "invoice:inv_7", "inv_99", "user:ana@example.com"]);
    if (r() < 0.35) q.q = pick(words);
    if (r() < 0.4) q.after = day();
    if (r() < 0.4) q.before = q.after && r() < 0.3 ? q.after : day();
    if (q.after && q.before && q.after > q.before) [q.after, q.before] = [q.before, q.after];
    q.page = String(pick([1, 1, 1, 2, 3, 7, 40]));
    q.page_size = String(pick([25, 50, 100]));
    out.push(q);
  }
  return out;
}

/** Each query in a time zone of its own (days not UTC's, a :45 offset, DST), by every path the thresholds open. */
async function expectSame(db: Db, seed: number, count: number) {
  const zones = ["UTC", "Europe/Berlin", "Asia/Kathmandu", "America/Los_Angeles"];
  const defaults = { ...textPlan };
  const plans = [
    defaults,
    { maxLocators: 3, entriesPerLocator: 1, smallFilter: 0 },
    { maxLocators: 1000, entriesPerLocator: 0, smallFilter: 0 },
  ];
  try {
    for (const [p, plan] of plans.entries()) {
      Object.assign(textPlan, plan);
      // Once as if two texts had shared a locator: then the entries are read to apply the text itself.
      if (p === 1) await db.execute(sql`insert into console.audit_text_collisions (locator) values (0)`);
      if (p === 2) await db.execute(sql`delete from console.audit_text_collisions where locator = 0`);
      for (const [i, raw] of queries(seed, count).entries()) {
        const timeZone = zones[i % zones.length];
        const query = activityQuerySchema.parse(raw);
        const expected = await plain(db, query, timeZone);
        const answer = await listActivity(db, query, timeZone);
        expect({ raw, timeZone, n: answer.pagination.total_records, items: answer.items }).toEqual({ raw, timeZone, ...expected });
      }
    }
  } finally {
    Object.assign(textPlan, defaults);
  }
}

/** The rollup's counts are the log's, and its bounds hold every entry of their day. */
async function expectRollupsHold(db: Db) {
  const wrong = rows(
    await db.execute(sql`
      select * from (
        select (at at time zone 'UTC')::date as day, actor_email, action, count(*) as n, min(seq) as lo, max(seq) as hi
        from console.audit_log group by 1, 2, 3
        union all
        select 'infinity'::date, actor_email, action, count(*), min(seq), max(seq) from console.audit_log group by 2, 3
      ) as l full join console.audit_counts as c using (day, actor_email, action)
      where l.n is distinct from c.n or l.lo < c.min_seq or l.hi > c.max_seq`),
  );
  expect(wrong).toEqual([]);
  // No two pairs share a locator (an absent text and an empty one included), so pages need not read entries.
  expect(rows(await db.execute(sql`select locator from console.audit_text_collisions`))).toEqual([]);
  // Every distinct pair of texts, lowercased, with its entries: the same rows, as many (one way round, and the sizes).
  const missing = rows(
    await db.execute(sql`
      (select lower(detail->>'reason'), lower(detail->>'decision_reason'), count(*) from console.audit_log
        where detail->>'reason' is not null or detail->>'decision_reason' is not null group by detail->>'reason', detail->>'decision_reason')
      except all (select reason_lower, decision_reason_lower, n from console.audit_texts)`),
  );
  expect(missing).toEqual([]);
  const size = async (from: ReturnType<typeof sql>) =>
    rows<{ n: string }>(await db.execute(sql`select count(*)::text as n from ${from}`))[0].n;
  expect(await size(sql`console.audit_texts`)).toBe(
    await size(sql`(select distinct detail->>'reason', detail->>'decision_reason' from console.audit_log
      where detail->>'reason' is not null or detail->>'decision_reason' is not null) as d`),
  );
}

async function suite(db: Db) {
  await fill(db, 1500, 7);
  await expectRollupsHold(db);
  await expectSame(db, 11, 80);

  // Retention removes the oldest entries (their counts come off, as console.audit_prune does it); a changed entry
  // moves its counts.
  await db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('console.audit_retention', 'on', true)`);
    await tx.execute(
      sql`insert into console.audit_checkpoints (seq, hash, removed) select seq, hash, seq from console.audit_log where seq = 400`,
    );
    await tx.execute(sql`delete from console.audit_log where seq <= 400`);
  });
  await db.transaction(async (tx) => {
    await tx.execute(sql`alter table console.audit_log disable trigger audit_log_append_only`);
    await tx.execute(
      sql`update console.audit_log set actor_email = 'ben@example.com', action = 'sign_in', at = at - interval '5 days', detail = '{"reason": "Moved"}' where seq in (select seq from console.audit_log order by seq desc limit 3)`,
    );
    await tx.execute(sql`alter table console.audit_log enable trigger audit_log_append_only`);
  });
  await fill(db, 300, 8);
  await expectRollupsHold(db);
  await expectSame(db, 12, 80);
}

describe("listActivity: exactly the plain query's pages and counts", () => {
  it("on PGlite", async () => {
    await suite(await getDatabase());
  }, 120_000);
});

describe("listActivity's target", () => {
  it("takes a person's email, in any case, as their entries' target", async () => {
    const db = await getDatabase();
    await db.execute(sql`insert into console.audit_log (at, actor_email, action, target, detail)
      values (now(), 'system', 'sign_in.failed', 'user:zoe@example.com', '{}'::jsonb)`);
    const query = (target: string) => activityQuerySchema.parse({ target });
    const byEmail = await listActivity(db, query("Zoe@Example.com"), "UTC");
    expect(byEmail.items.map((e) => e.target)).toEqual(["user:zoe@example.com"]);
    expect(byEmail).toEqual(await listActivity(db, query("user:zoe@example.com"), "UTC"));
  });

  it("reads an order id with an @ in it as its invoice when the index knows it", async () => {
    const db = await getDatabase();
    await db.insert(searchInvoices).values({ invoiceId: "invoice_with_at", orderId: "PO@42" });
    await db.execute(sql`insert into console.audit_log (at, actor_email, action, target, detail)
      values (now(), 'ana@example.com', 'invoice.status_change', 'invoice:invoice_with_at', '{}'::jsonb)`);
    const found = await listActivity(db, activityQuerySchema.parse({ target: "PO@42" }), "UTC");
    expect(found.items.map((e) => e.target)).toEqual(["invoice:invoice_with_at"]);
  });
});

describeOnPostgres("listActivity on PostgreSQL", (database) => {
  it("answers as the plain query", async () => {
    await suite(database.db());
  }, 120_000);
});
