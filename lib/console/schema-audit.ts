import { type SQL, sql } from "drizzle-orm";
import { type AnyPgColumn, bigint, date, index, jsonb, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { consoleSchema } from "./schema-base";

// The audit log's tables (lib/console/audit), re-exported by ./schema.ts, which drizzle-kit reads.

/**
 * Every change made through the console: who, when, what, from → to, why, and what the upstream answered. A hash
 * chain (lib/console/activity/chain.ts): the database numbers each entry (`seq`) and stores the SHA-256 of the
 * previous entry's hash and this entry's content, in a trigger under one lock, so several instances keep one
 * chain; another trigger refuses UPDATE and DELETE. The defaults below are the trigger's to replace.
 */
export const auditLog = consoleSchema.table(
  "audit_log",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    seq: bigint("seq", { mode: "number" }).notNull().default(0),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    actorId: text("actor_id"),
    actorEmail: text("actor_email").notNull(),
    action: text("action").notNull(),
    target: text("target").notNull(),
    detail: jsonb("detail").$type<Record<string, unknown>>().notNull().default({}),
    prevHash: text("prev_hash").notNull().default(""),
    hash: text("hash").notNull().default(""),
    /**
     * The entry's texts (the reason and a decision's reason, which the activity filter `q` reads) as one number, null without either:
     * console.audit_texts' `locator` (drizzle/0022). Two texts may share one, so it only ever narrows the filter.
     * Computed by the database; not part of the entry's hash.
     */
    textLocator: bigint("text_locator", { mode: "bigint" }).generatedAlwaysAs(
      // Each text as its length and itself, "-" when absent: two different pairs never make one string.
      sql`case when "detail"->>'reason' is null and "detail"->>'decision_reason' is null then null else hashtextextended(coalesce(length("detail"->>'reason')::text || ':' || ("detail"->>'reason'), '-') || coalesce(length("detail"->>'decision_reason')::text || ':' || ("detail"->>'decision_reason'), '-'), 0) end`,
    ),
  },
  (t) => [
    uniqueIndex("audit_log_seq_idx").on(t.seq),
    index("audit_log_target_idx").on(t.target, t.seq),
    // Person, kind and time lead, `seq` orders a walk; `at` and `text_locator` after them let the activity view
    // count a mix of filters from the index alone (lib/console/activity/query.ts).
    index("audit_log_actor_idx").on(t.actorEmail, t.seq, t.at, t.textLocator),
    index("audit_log_action_idx").on(t.action, t.seq, t.at, t.textLocator),
    index("audit_log_at_idx").on(t.at, t.seq, t.textLocator),
    index("audit_log_text_idx").on(t.textLocator, t.seq),
  ],
);

/**
 * How many audit entries each UTC day holds, per person and kind, and the least and greatest of their numbers: the
 * activity view's exact counts without counting entries, and where in the chain a range of days lies. The day
 * 'infinity' holds all time. Kept by triggers on the log in the same transaction as every write
 * (drizzle/0022_audit_indexes.sql); `min_seq`/`max_seq` only ever widen, so they stay bounds after retention
 * removes entries.
 */
export const auditCounts = consoleSchema.table(
  "audit_counts",
  {
    day: date("day", { mode: "string" }).notNull(),
    actorEmail: text("actor_email").notNull(),
    action: text("action").notNull(),
    n: bigint("n", { mode: "number" }).notNull(),
    minSeq: bigint("min_seq", { mode: "number" }).notNull(),
    maxSeq: bigint("max_seq", { mode: "number" }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.day, t.actorEmail, t.action] }),
    index("audit_counts_action_idx").on(t.action, t.day),
    index("audit_counts_actor_idx").on(t.actorEmail, t.day),
  ],
);

/**
 * Every distinct pair of texts (reason, decision_reason) in the audit log, lowercased as ILIKE compares them, with how many
 * entries hold it: the text filter's exact count reads the pairs that match instead of every entry. Kept by the same
 * triggers; `key` is the SHA-256 of the pair as written. The runs of three characters in each text, in a GIN index,
 * find the pairs that may hold a text (audit_text_grams, drizzle/0022), and LIKE decides.
 */
export const auditTexts = consoleSchema.table(
  "audit_texts",
  {
    key: text("key").primaryKey(),
    reasonLower: text("reason_lower"),
    decisionReasonLower: text("decision_reason_lower"),
    locator: bigint("locator", { mode: "bigint" }).notNull(),
    n: bigint("n", { mode: "number" }).notNull(),
  },
  (t) => [
    index("audit_texts_locator_idx").on(t.locator),
    index("audit_texts_grams_idx").using("gin", auditTextGrams(t.reasonLower, t.decisionReasonLower)),
  ],
);

/**
 * Locators that two distinct pairs of texts have shared (recorded by the same triggers; never forgotten). While there
 * are none, an entry's locator alone says whether it holds a text, and the activity view need not read the entry.
 */
export const auditTextCollisions = consoleSchema.table("audit_text_collisions", {
  locator: bigint("locator", { mode: "bigint" }).primaryKey(),
});

/** The runs of three characters in a pair of texts: the expression of audit_texts_grams_idx, which a lookup repeats. */
export function auditTextGrams(reason: AnyPgColumn, decisionReason: AnyPgColumn): SQL {
  return sql`(console.audit_text_grams(${reason}) || console.audit_text_grams(${decisionReason}))`;
}

/**
 * Where the chain starts after retention removed its oldest entries (lib/console/activity/retention.ts): the last
 * removed entry's number and hash, so the first entry kept still verifies. Row `seq` 0 is the chain's start.
 */
export const auditCheckpoints = consoleSchema.table("audit_checkpoints", {
  seq: bigint("seq", { mode: "number" }).primaryKey(),
  hash: text("hash").notNull(),
  removed: bigint("removed", { mode: "number" }).notNull().default(0),
  at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
});
