import { type SQL, sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  boolean,
  customType,
  date,
  index,
  integer,
  jsonb,
  numeric,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { users } from "./schema-auth";
import { consoleSchema, createdAt } from "./schema-base";

// The console's tables (ARCHITECTURE.md §5); the sandbox's are in lib/sandbox/schema.ts. drizzle-kit reads both
// (drizzle.config.ts) outside the react-server condition, so neither imports "server-only". The migrations in drizzle/
// are generated from the two together.

// People and their sign-in (better-auth's tables and the second factor's).
export * from "./schema-auth";
export { consoleSchema } from "./schema-base";

/** One-time links to choose a password, invite or reset (lib/console/auth/account-links.ts); only the token's SHA-256 is kept. */
export const accountLinks = consoleSchema.table(
  "account_links",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    kind: text("kind").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull().unique(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    /** An admin's email, or "system" (`npm run user`). */
    createdBy: text("created_by").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("account_links_user_idx").on(t.userId)],
);

/** Failed sign-ins per account and per address, counted in fixed windows (lib/console/auth/sign-in-limiter.ts). */
export const signInFailures = consoleSchema.table("sign_in_failures", {
  key: text("key").primaryKey(),
  windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
  failures: integer("failures").notNull(),
});

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
     * The entry's texts (the reason and comment the activity filter `q` reads) as one number, null without either:
     * console.audit_texts' `locator` (drizzle/0022). Two texts may share one, so it only ever narrows the filter.
     * Computed by the database; not part of the entry's hash.
     */
    textLocator: bigint("text_locator", { mode: "bigint" }).generatedAlwaysAs(
      // Each text as its length and itself, "-" when absent: two different pairs never make one string.
      sql`case when "detail"->>'reason' is null and "detail"->>'comment' is null then null else hashtextextended(coalesce(length("detail"->>'reason')::text || ':' || ("detail"->>'reason'), '-') || coalesce(length("detail"->>'comment')::text || ':' || ("detail"->>'comment'), '-'), 0) end`,
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
 * Every distinct pair of texts (reason, comment) in the audit log, lowercased as ILIKE compares them, with how many
 * entries hold it: the text filter's exact count reads the pairs that match instead of every entry. Kept by the same
 * triggers; `key` is the SHA-256 of the pair as written. The runs of three characters in each text, in a GIN index,
 * find the pairs that may hold a text (audit_text_grams, drizzle/0022), and LIKE decides.
 */
export const auditTexts = consoleSchema.table(
  "audit_texts",
  {
    key: text("key").primaryKey(),
    reasonLower: text("reason_lower"),
    commentLower: text("comment_lower"),
    locator: bigint("locator", { mode: "bigint" }).notNull(),
    n: bigint("n", { mode: "number" }).notNull(),
  },
  (t) => [
    index("audit_texts_locator_idx").on(t.locator),
    index("audit_texts_grams_idx").using("gin", auditTextGrams(t.reasonLower, t.commentLower)),
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
export function auditTextGrams(reason: AnyPgColumn, comment: AnyPgColumn): SQL {
  return sql`(console.audit_text_grams(${reason}) || console.audit_text_grams(${comment}))`;
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

/** Values the console generates once and shares across instances, such as the session-signing secret. */
export const settings = consoleSchema.table("settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
});

/**
 * The console's cache of GET /rates, shared by every instance on one database: the last good answer, when it
 * was fetched, when the next upstream call may be made, why the rates are stale (if they are), and a lease
 * that only one instance at a time holds while it asks upstream.
 */
export const ratesCache = consoleSchema.table("rates_cache", {
  id: text("id").primaryKey(),
  /**
   * The last good rates, EUR per unit by code, as decimal strings (rows written before amounts were strings hold
   * numbers, read as decimals all the same); null until the first success.
   */
  rates: jsonb("rates").$type<Record<string, string | number>>(),
  /** The rates before the last good ones, for "change since the previous value". */
  previousRates: jsonb("previous_rates").$type<Record<string, string | number>>(),
  fetchedAt: timestamp("fetched_at", { withTimezone: true }),
  previousFetchedAt: timestamp("previous_fetched_at", { withTimezone: true }),
  /** No upstream call before this instant (the TTL, or the provider's Retry-After). */
  nextTryAt: timestamp("next_try_at", { withTimezone: true }).notNull().defaultNow(),
  /** Why the last attempt failed (null after a success): rate_limited, upstream_error, … */
  staleReason: text("stale_reason"),
  staleDetail: text("stale_detail"),
  /** Held by the one instance asking upstream, until this instant. */
  leaseUntil: timestamp("lease_until", { withTimezone: true }),
  leaseHolder: text("lease_holder"),
  /** Every upstream call ever made through this cache (the benchmark reads it). */
  upstreamCalls: integer("upstream_calls").notNull().default(0),
});

/**
 * The webhook inbox (POST /api/webhook-inbox): every request kept with its headers, body (capped) and the
 * verdict on its signature, newest last by `seq`, which is also the cursor the webhooks page polls with.
 * Bounded: the oldest entries beyond WEBHOOK_INBOX_MAX_ENTRIES are removed as new ones arrive.
 */
export const webhookInbox = consoleSchema.table(
  "webhook_inbox",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    seq: bigint("seq", { mode: "number" }).generatedAlwaysAsIdentity().notNull(),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
    /** valid, invalid, too_old, replayed or not_verified. */
    verdict: text("verdict").notNull(),
    /** Why, in a sentence a person reads. */
    reason: text("reason").notNull(),
    messageId: text("message_id"),
    /** The invoice the body names (`data.invoice.invoice_id`), when it names one. */
    invoiceId: text("invoice_id"),
    eventType: text("event_type"),
    headers: jsonb("headers").$type<Record<string, string>>().notNull(),
    body: text("body").notNull(),
    bodyBytes: integer("body_bytes").notNull(),
    truncated: boolean("truncated").notNull().default(false),
    remoteAddress: text("remote_address"),
  },
  (t) => [uniqueIndex("webhook_inbox_seq_uq").on(t.seq), index("webhook_inbox_invoice_idx").on(t.invoiceId, t.seq)],
);

/**
 * The `webhook-id`s of messages the inbox accepted as validly signed, each recorded once: a second request
 * with the same id is a replay. Kept well beyond the 5-minute tolerance, independent of the entries' bound.
 */
export const webhookInboxIds = consoleSchema.table("webhook_inbox_ids", {
  messageId: text("message_id").primaryKey(),
  seenAt: timestamp("seen_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The console's mirror of the provider's invoices: every invoice the provider lists, kept so
 * that support can find one by order id, order name or invoice id, and so that views the provider's list cannot
 * answer (several statuses, text, totals) can be (ARCHITECTURE.md §4). The invoice page still reads the
 * provider. `search_vector` holds the words of the
 * order name and the parts of the order id (PostgreSQL's built-in full-text search, on PGlite and PostgreSQL
 * alike); the exact/prefix/suffix indexes on the ids are hand-written at the end of the migration.
 */
const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

export const searchInvoices = consoleSchema.table(
  "search_invoices",
  {
    /** The provider's id, as it gives it (opaque). */
    invoiceId: text("invoice_id").primaryKey(),
    orderId: text("order_id"),
    orderName: text("order_name"),
    status: text("status"),
    // Decimal strings: PostgreSQL's numeric keeps every digit, and so does the string.
    fiatAmount: numeric("fiat_amount", { mode: "string" }),
    fiatCurrency: text("fiat_currency"),
    cryptoAmount: numeric("crypto_amount", { mode: "string" }),
    currency: text("currency"),
    createdAt: timestamp("created_at", { withTimezone: true }),
    updatedAt: timestamp("updated_at", { withTimezone: true }),
    /**
     * Words of the order name and parts of the order id ('simple' config: no stemming, any language). Dashes
     * and the like become spaces first: the parser would read "ORD-2611-002399" as "ord", "-2611", "-002399".
     */
    searchVector: tsvector("search_vector").generatedAlwaysAs(
      sql`to_tsvector('simple', regexp_replace(coalesce(order_name, '') || ' ' || coalesce(order_id, ''), '[-_/.#:]+', ' ', 'g'))`,
    ),
    /** When the console last wrote this row (from a sync, a change made here, or a webhook). */
    indexedAt: timestamp("indexed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("search_invoices_updated_idx").on(t.updatedAt),
    index("search_invoices_vector_idx").using("gin", t.searchVector),
    index("search_invoices_created_idx").on(t.createdAt, t.invoiceId),
    index("search_invoices_status_created_idx").on(t.status, t.createdAt, t.invoiceId),
  ],
);

/**
 * The whole invoice as the console read it, JSON with every amount a decimal string: what a view the provider
 * cannot answer lists and exports. Beside the mirror's row, not in it, so the rows that filters and text
 * queries read stay narrow; written with it (lib/console/mirror/store.ts). A row without one (written before
 * the mirror kept whole invoices) is listed from its columns until its next sync.
 */
export const mirrorDocuments = consoleSchema.table("mirror_documents", {
  invoiceId: text("invoice_id")
    .primaryKey()
    .references(() => searchInvoices.invoiceId, { onDelete: "cascade" }),
  document: text("document").notNull(),
});

/**
 * The mirror's totals, kept equal to console.search_invoices by triggers in every transaction that
 * writes it (hand-written in the migration, the pattern of sandbox.invoice_counts): per status, currency and
 * fiat currency, one row per UTC day of `created_at` ('-infinity' for an invoice without one) and one with
 * day = 'infinity' holding the all-time total. A view's sums are then a sum over a few hundred rows plus the
 * invoices of the partial days at its edges. Absent values are '' in the key.
 */
export const mirrorTotals = consoleSchema.table(
  "mirror_totals",
  {
    status: text("status").notNull(),
    currency: text("currency").notNull(),
    fiatCurrency: text("fiat_currency").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    count: bigint("count", { mode: "number" }).notNull(),
    fiatSum: numeric("fiat_sum", { mode: "string" }).notNull(),
    cryptoSum: numeric("crypto_sum", { mode: "string" }).notNull(),
  },
  // By day too: the all-time rows and a range's whole days, whatever the status (bench:summary).
  (t) => [primaryKey({ columns: [t.status, t.currency, t.fiatCurrency, t.day] }), index("mirror_totals_day_idx").on(t.day)],
);

/** A named view of the invoice list: its query string, for its owner alone or for the whole team. */
export const savedViews = consoleSchema.table(
  "saved_views",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    name: text("name").notNull(),
    /** The list's query string as the URL holds it ("status=pending,paid_partial&created=7d"), without "?". */
    query: text("query").notNull(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Shown to everyone who may read invoices; only admins (and its owner) remove it. */
    shared: boolean("shared").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("saved_views_owner_idx").on(t.ownerId)],
);

/**
 * A bulk cancel: one reason for many invoices, run on the server as one job that survives the
 * browser closing and the instance restarting (a lease, as the search sync's), visible to whoever started it.
 */
export const bulkJobs = consoleSchema.table(
  "bulk_jobs",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    kind: text("kind").notNull(),
    reason: text("reason").notNull(),
    createdBy: text("created_by").notNull(),
    createdByEmail: text("created_by_email").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** Set once every item has an outcome. */
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    leaseUntil: timestamp("lease_until", { withTimezone: true }),
    leaseHolder: text("lease_holder"),
    /** The approval request the job waits for before it starts (console.approval_requests); null once it may run. */
    awaitingApproval: uuid("awaiting_approval"),
  },
  (t) => [index("bulk_jobs_created_by_idx").on(t.createdBy, t.createdAt)],
);

/**
 * A change the transition policy wants a second person to approve (lib/contract/transition-policy.ts): one status
 * change, or a whole bulk cancel. Nothing reaches the provider until another person with `invoices:approve`
 * approves it, and only if the invoice still has `from_status` then. `state` moves once from pending to approved,
 * rejected, withdrawn, expired or invoice_changed, by one conditional UPDATE, so two approvers at once carry it out
 * once: `approving` (with `claim_until`) holds it while the approver's change is sent.
 */
export const approvalRequests = consoleSchema.table(
  "approval_requests",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    /** status_change or bulk_cancel. */
    kind: text("kind").notNull(),
    state: text("state").notNull().default("pending"),
    /** The provider's id of the invoice (a status change), as it named it when asked. */
    invoiceId: text("invoice_id"),
    bulkJobId: uuid("bulk_job_id"),
    fromStatus: text("from_status"),
    toStatus: text("to_status").notNull(),
    reason: text("reason").notNull(),
    /** Why the policy asks for approval, in a sentence. */
    why: text("why").notNull(),
    /** What the invoice (or the job's invoices) looked like when asked: order, amounts, crypto received. */
    snapshot: jsonb("snapshot").$type<Record<string, unknown>>().notNull().default({}),
    requestedBy: text("requested_by").notNull(),
    requestedByEmail: text("requested_by_email").notNull(),
    requestedAt: timestamp("requested_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    claimUntil: timestamp("claim_until", { withTimezone: true }),
    decidedBy: text("decided_by"),
    decidedByEmail: text("decided_by_email"),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    decisionReason: text("decision_reason"),
    /** What the provider made of the approved change: changed, unchanged; or the status found instead. */
    outcome: text("outcome"),
  },
  (t) => [index("approval_requests_state_idx").on(t.state, t.requestedAt), index("approval_requests_invoice_idx").on(t.invoiceId, t.state)],
);

/** One invoice of a bulk job and what became of it: null until tried, then one of BULK_OUTCOMES (lib/contract/bulk.ts). */
export const bulkJobItems = consoleSchema.table(
  "bulk_job_items",
  {
    jobId: uuid("job_id")
      .notNull()
      .references(() => bulkJobs.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    invoiceId: text("invoice_id").notNull(),
    outcome: text("outcome"),
    /** Why it was refused or failed, in a sentence. */
    detail: text("detail"),
    /** The status it had before the change, when it was changed. */
    fromStatus: text("from_status"),
    /**
     * The invoice's own id as the provider answered it, claimed before the change is sent: the unique index lets
     * one item per invoice through, however its id was written, even with both running at once.
     */
    resolvedId: text("resolved_id"),
    attempts: integer("attempts").notNull().default(0),
    updatedAt: timestamp("updated_at", { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.jobId, t.position] }),
    index("bulk_job_items_pending_idx").on(t.jobId, t.outcome),
    uniqueIndex("bulk_job_items_resolved_idx").on(t.jobId, t.resolvedId),
  ],
);

/**
 * The search index's sync state, one row shared by every instance: the first fill's progress (resumable by
 * page), the newest `updated_at` seen (where the next incremental walk may stop), when the index was last
 * complete, why it is paused, and the lease only one instance at a time holds while it walks the provider.
 */
export const searchSync = consoleSchema.table("search_sync", {
  id: text("id").primaryKey(),
  /** The next page of the first fill; null once the fill is done. */
  fillPage: integer("fill_page").default(1),
  fillTotalRecords: integer("fill_total_records"),
  fillStartedAt: timestamp("fill_started_at", { withTimezone: true }),
  fillCompletedAt: timestamp("fill_completed_at", { withTimezone: true }),
  /** The newest provider `updated_at` the index has seen. */
  highWater: timestamp("high_water", { withTimezone: true }),
  /** The index holds every change made before this instant (the start of the last complete walk). */
  freshAsOf: timestamp("fresh_as_of", { withTimezone: true }),
  nextTryAt: timestamp("next_try_at", { withTimezone: true }).notNull().defaultNow(),
  /** Why the sync waits (null when it does not): rate_limited, upstream_error. */
  pausedReason: text("paused_reason"),
  pausedDetail: text("paused_detail"),
  leaseUntil: timestamp("lease_until", { withTimezone: true }),
  leaseHolder: text("lease_holder"),
  /** Every provider call the sync has made (the benchmark and the admin card read it). */
  upstreamCalls: integer("upstream_calls").notNull().default(0),
  /** The last complete incremental walk: how long it took and how many provider calls it made. */
  lastWalkMs: integer("last_walk_ms"),
  lastWalkCalls: integer("last_walk_calls"),
});
