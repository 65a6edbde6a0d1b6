import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgSchema,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

/** The sandbox's own data: the invoicing API we serve under /sandbox/api/v1 (ARCHITECTURE.md §5). */
export const sandbox = pgSchema("sandbox");

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();

export const merchants = sandbox.table("merchants", {
  id: uuid("id").primaryKey(),
  name: text("name").notNull(),
  webhookSecret: text("webhook_secret").notNull(),
  createdAt: createdAt(),
});

export const apiKeys = sandbox.table("api_keys", {
  id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
  merchantId: uuid("merchant_id")
    .notNull()
    .references(() => merchants.id),
  name: text("name").notNull(),
  /** SHA-256 of the key, hex: the key itself is never stored. */
  keyHash: text("key_hash").notNull().unique(),
  /** What a person sees to tell keys apart, e.g. "sk_test_demo…". */
  keyPrefix: text("key_prefix").notNull(),
  scopes: text("scopes").array().notNull(),
  createdAt: createdAt(),
  revokedAt: timestamp("revoked_at", { withTimezone: true }),
});

const money = (name: string) => numeric(name, { precision: 18, scale: 2, mode: "string" });
const crypto = (name: string) => numeric(name, { precision: 38, scale: 18, mode: "string" });

export const invoices = sandbox.table(
  "invoices",
  {
    /** UUID v7: time-ordered, so it also breaks ties in a stable order. */
    id: uuid("id").primaryKey(),
    merchantId: uuid("merchant_id")
      .notNull()
      .references(() => merchants.id),
    orderId: text("order_id").notNull(),
    orderName: text("order_name"),
    status: text("status").notNull(),
    fiatAmount: money("fiat_amount").notNull(),
    fiatCurrency: text("fiat_currency").notNull().default("EUR"),
    cryptoAmount: crypto("crypto_amount").notNull(),
    currency: text("currency").notNull(),
    allowedErrorPercent: integer("allowed_error_percent").notNull(),
    callbackUrl: text("callback_url"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    // Payment: where the customer pays and what the chain has shown so far.
    paymentAddress: text("payment_address"),
    amountReceived: crypto("amount_received"),
    /** EUR per one unit of `currency` when the invoice was priced. */
    rate: numeric("rate", { precision: 24, scale: 8, mode: "string" }),
    /** An archived invoice's given amount, `fiat` or `crypto` (the other was derived at `rate`); null otherwise. */
    pricedIn: text("priced_in"),
    paidAt: timestamp("paid_at", { withTimezone: true }),
    confirmations: integer("confirmations"),
    confirmationsRequired: integer("confirmations_required"),
    // The amounts' buckets (drizzle/0008), kept with the row so that a range's edge days are counted per
    // bucket in the created_at index alone (lib/sandbox/sort-buckets.ts).
    fiatBucket: numeric("fiat_bucket").generatedAlwaysAs(sql`sandbox.amount_bucket(fiat_amount)`),
    cryptoBucket: numeric("crypto_bucket").generatedAlwaysAs(sql`sandbox.amount_bucket(crypto_amount)`),
  },
  (t) => [
    uniqueIndex("invoices_merchant_order_uq").on(t.merchantId, t.orderId),
    // An invoice changes after it is created, never before: a list sorted by updated_at with a created range
    // can then start its walk at the range's start (lib/sandbox/invoices.ts).
    check("invoices_updated_at_not_before_created_at", sql`${t.updatedAt} >= ${t.createdAt}`),
    // One index per sort key, alone and behind each equality filter, each ending in the tie-breaker, so
    // every filter × sort of GET /invoices reads a page straight off an index (scanned backwards for desc).
    // Behind the unique id come the other filters' columns (they never change the order): a deep page's
    // offset is then walked in the index alone, filters included, without reading one table row (issue 13).
    ...(["created_at", "updated_at", "fiat_amount", "crypto_amount"] as const).flatMap((key) => {
      const column = { created_at: t.createdAt, updated_at: t.updatedAt, fiat_amount: t.fiatAmount, crypto_amount: t.cryptoAmount }[key];
      const created = key === "created_at" ? [] : [t.createdAt];
      const buckets = key === "created_at" ? [t.fiatBucket, t.cryptoBucket] : [];
      return [
        index(`invoices_${key}_idx`).on(t.merchantId, column, t.id, t.status, t.currency, ...created, ...buckets),
        index(`invoices_status_${key}_idx`).on(t.merchantId, t.status, column, t.id, t.currency, ...created),
        index(`invoices_currency_${key}_idx`).on(t.merchantId, t.currency, column, t.id, t.status, ...created),
      ];
    }),
  ],
);

/**
 * Exact totals for GET /invoices without counting invoices at request time (issue 13): how many invoices a
 * merchant has per status, currency and UTC day of `created_at`, plus one row per key with day = 'infinity'
 * holding its all-time total (a total without a created range sums a few dozen rows). Kept by statement triggers on
 * sandbox.invoices in the same transaction as every insert, update and delete (drizzle/0006, at its end), so
 * it agrees with the table in every snapshot, whichever instance or path (API, seed, SQL) wrote.
 */
export const invoiceCounts = sandbox.table(
  "invoice_counts",
  {
    merchantId: uuid("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    status: text("status").notNull(),
    currency: text("currency").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    count: bigint("count", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.merchantId, t.status, t.currency, t.day] }), index("invoice_counts_day_idx").on(t.merchantId, t.day)],
);

/**
 * Where a deep page starts, without walking the index to it (issue 13): how many of a merchant's invoices per
 * status and currency fall in each bucket of a sort key — `updated_at` by UTC day (the bucket is the epoch
 * second of its midnight), `fiat_amount` and `crypto_amount` by their first two significant digits (the
 * bucket is the amount cut to those digits). A bucket is the smallest key its invoices can have, so the rows
 * before it are exactly those of the buckets below it. `created_at` needs no table of its own: its days are in
 * invoice_counts. Kept by statement triggers like invoice_counts (drizzle/0008, at its end).
 */
export const invoiceSortBuckets = sandbox.table(
  "invoice_sort_buckets",
  {
    merchantId: uuid("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    sortBy: text("sort_by").notNull(),
    status: text("status").notNull(),
    currency: text("currency").notNull(),
    bucket: numeric("bucket").notNull(),
    count: bigint("count", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.merchantId, t.sortBy, t.status, t.currency, t.bucket] })],
);

/**
 * The same buckets of the amounts per UTC day of created_at (all statuses and currencies together), for deep
 * pages of a list with a created range: the rows before a bucket are those of the range's whole days (here)
 * plus those of its partial edge days (counted in the index). Kept by statement triggers (drizzle/0010).
 */
export const invoiceDayBuckets = sandbox.table(
  "invoice_day_buckets",
  {
    merchantId: uuid("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    sortBy: text("sort_by").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    bucket: numeric("bucket").notNull(),
    count: bigint("count", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.merchantId, t.sortBy, t.day, t.bucket] })],
);

export const transactions = sandbox.table(
  "transactions",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    invoiceId: uuid("invoice_id")
      .notNull()
      .references(() => invoices.id, { onDelete: "cascade" }),
    txHash: text("tx_hash").notNull(),
    amount: crypto("amount").notNull(),
    confirmations: integer("confirmations").notNull(),
    blockHeight: integer("block_height"),
    seenAt: timestamp("seen_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("transactions_invoice_idx").on(t.invoiceId, t.seenAt)],
);

/**
 * Status-change webhooks, written in the same transaction as the change (an outbox): a delivery survives a
 * restart and is retried on a schedule until an attempt gets a 2xx or the schedule runs out.
 */
export const webhookDeliveries = sandbox.table(
  "webhook_deliveries",
  {
    /** UUID v7; the `webhook-id` header is `msg_<id>`, the same on every attempt. */
    id: uuid("id").primaryKey(),
    merchantId: uuid("merchant_id")
      .notNull()
      .references(() => merchants.id),
    invoiceId: uuid("invoice_id")
      .notNull()
      .references(() => invoices.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    /** The exact body signed and sent. */
    payload: text("payload").notNull(),
    /** pending, delivered (an attempt got a 2xx) or failed (the schedule ran out, or the address is refused). */
    state: text("state").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    /** When a pending delivery is due; a dispatcher that claims it moves this forward as its lease. */
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index("webhook_deliveries_due_idx").on(t.nextAttemptAt).where(sql`state = 'pending'`),
    index("webhook_deliveries_invoice_idx").on(t.invoiceId),
  ],
);

/** Every attempt to deliver a webhook, with what the receiver answered or why nothing was sent. */
export const webhookAttempts = sandbox.table(
  "webhook_attempts",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    deliveryId: uuid("delivery_id")
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: "cascade" }),
    attempt: integer("attempt").notNull(),
    at: timestamp("at", { withTimezone: true }).notNull(),
    responseStatus: integer("response_status"),
    error: text("error"),
    durationMs: integer("duration_ms").notNull(),
    /** The first KB of what the receiver answered, as text. */
    responseBody: text("response_body"),
  },
  (t) => [uniqueIndex("webhook_attempts_delivery_attempt_uq").on(t.deliveryId, t.attempt)],
);

/**
 * The console's own data (ARCHITECTURE.md §5): people, their sessions (better-auth's tables, named as it expects),
 * the audit log and small settings.
 */
/**
 * GET /rates's limit: one counter per API key and fixed one-minute window, raised by an atomic upsert, so the
 * limit holds across every sandbox instance on one PostgreSQL. Old windows are pruned as new ones open.
 */
export const rateLimitCounters = sandbox.table(
  "rate_limit_counters",
  {
    keyId: uuid("key_id")
      .notNull()
      .references(() => apiKeys.id, { onDelete: "cascade" }),
    windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
    count: integer("count").notNull(),
  },
  (t) => [primaryKey({ columns: [t.keyId, t.windowStart] })],
);

export const consoleSchema = pgSchema("console");

const updatedAt = () => timestamp("updated_at", { withTimezone: true }).notNull().defaultNow();

export const users = consoleSchema.table("users", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  email: text("email").notNull().unique(),
  emailVerified: boolean("email_verified").notNull().default(false),
  image: text("image"),
  role: text("role").notNull().default("viewer"),
  banned: boolean("banned").default(false),
  banReason: text("ban_reason"),
  banExpires: timestamp("ban_expires", { withTimezone: true }),
  /** The IANA zone this person counts days and reads times in, instead of CONSOLE_TIME_ZONE (lib/contract/time-zone.ts); null: the business zone. */
  timeZone: text("time_zone"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const sessions = consoleSchema.table(
  "sessions",
  {
    id: text("id").primaryKey(),
    token: text("token").notNull().unique(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    impersonatedBy: text("impersonated_by"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

export const accounts = consoleSchema.table("accounts", {
  id: text("id").primaryKey(),
  accountId: text("account_id").notNull(),
  providerId: text("provider_id").notNull(),
  userId: text("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  accessToken: text("access_token"),
  refreshToken: text("refresh_token"),
  idToken: text("id_token"),
  accessTokenExpiresAt: timestamp("access_token_expires_at", { withTimezone: true }),
  refreshTokenExpiresAt: timestamp("refresh_token_expires_at", { withTimezone: true }),
  scope: text("scope"),
  /** better-auth's scrypt hash; never a plain password. */
  password: text("password"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const verifications = consoleSchema.table("verifications", {
  id: text("id").primaryKey(),
  identifier: text("identifier").notNull(),
  value: text("value").notNull(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** Failed sign-ins per account and per address, counted in fixed windows (lib/console/auth/sign-in-limiter.ts). */
export const signInFailures = consoleSchema.table("sign_in_failures", {
  key: text("key").primaryKey(),
  windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
  failures: integer("failures").notNull(),
});

/** Every change made through the console: who, when, what, from → to, why, and what the upstream answered. */
export const auditLog = consoleSchema.table(
  "audit_log",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    actorId: text("actor_id"),
    actorEmail: text("actor_email").notNull(),
    action: text("action").notNull(),
    target: text("target").notNull(),
    detail: jsonb("detail").$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [index("audit_log_target_idx").on(t.target, t.at)],
);

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
   * The last good rates, EUR per unit by code, as decimal strings (issue 22; rows written before it hold
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
 * The console's search index (issue 15): a summary of every invoice the provider lists, kept so that support
 * can find one by order id, order name or invoice id — which the provider's list cannot filter by. It only
 * finds: lists, totals and the invoice page still read the provider. `search_vector` holds the words of the
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
    // Decimal strings (issue 22): PostgreSQL's numeric keeps every digit, and so does the string.
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
  (t) => [index("search_invoices_updated_idx").on(t.updatedAt), index("search_invoices_vector_idx").using("gin", t.searchVector)],
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
