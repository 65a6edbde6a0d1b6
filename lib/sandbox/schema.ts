import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  numeric,
  pgSchema,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

// The sandbox's tables (ARCHITECTURE.md §5, §7); the console's are in lib/console/schema.ts. drizzle-kit reads both
// (drizzle.config.ts) outside the react-server condition, so neither imports "server-only". The migrations in drizzle/
// are generated from the two together.

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
    // offset is then walked in the index alone, filters included, without reading one table row.
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
 * Exact totals for GET /invoices without counting invoices at request time: how many invoices a
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
 * Where a deep page starts, without walking the index to it: how many of a merchant's invoices per
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
    // GET /webhook-deliveries: a merchant's, newest first.
    index("webhook_deliveries_merchant_created_idx").on(t.merchantId, t.createdAt.desc(), t.id.desc()),
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
    /** The first 2 KB of what the receiver answered, as text. */
    responseBody: text("response_body"),
    /**
     * Asked for by POST /webhook-deliveries/{id}/redeliver: outside the retry schedule, so it neither counts in the
     * delivery's `attempts` nor takes a scheduled attempt's number (drizzle/0024_webhook_redelivery.sql).
     */
    redelivery: boolean("redelivery").notNull().default(false),
  },
  (t) => [uniqueIndex("webhook_attempts_delivery_attempt_uq").on(t.deliveryId, t.attempt).where(sql`not redelivery`)],
);

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
