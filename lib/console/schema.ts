import { sql } from "drizzle-orm";
import { bigint, boolean, index, integer, jsonb, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { users } from "./schema-auth";
import { consoleSchema, createdAt } from "./schema-base";

// The console's tables (ARCHITECTURE.md §5); the sandbox's are in lib/sandbox/schema.ts. drizzle-kit reads both
// (drizzle.config.ts) outside the react-server condition, so neither imports "server-only". The migrations in drizzle/
// are generated from the two together.

export * from "./schema-audit";
// People and their sign-in (better-auth's tables and the second factor's).
export * from "./schema-auth";
export { consoleSchema } from "./schema-base";
export * from "./schema-mirror";

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
 * rejected, withdrawn, expired, invoice_changed or requester_changed, by one conditional UPDATE, so two approvers at once carry it out
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

/**
 * Who is changing an invoice's status right now (lib/console/invoices/change-lease.ts): one change of an invoice at
 * a time, across instances, from reading it to the provider's answer. A holder that crashed is outlived by `until`.
 */
export const invoiceChangeLeases = consoleSchema.table("invoice_change_leases", {
  /** The SHA-256 of the invoice's id (hex): ids are opaque and of any length. */
  invoiceKey: text("invoice_key").primaryKey(),
  holder: text("holder").notNull(),
  until: timestamp("until", { withTimezone: true }).notNull(),
});

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
