import { sql } from "drizzle-orm";
import { bigint, customType, date, index, integer, numeric, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { consoleSchema } from "./schema-base";

// The mirror's tables (lib/console/mirror), re-exported by ./schema.ts, which drizzle-kit reads.

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

/**
 * The search index's sync state, one row shared by every instance: the first fill's progress (resumable where
 * it stopped), the newest `updated_at` seen (where the next incremental walk may stop), when the index was last
 * complete, why it is paused, and the lease only one instance at a time holds while it walks the provider.
 */
export const searchSync = consoleSchema.table("search_sync", {
  id: text("id").primaryKey(),
  /** The next page of the first fill after fillAfter; null once the fill is done. */
  fillPage: integer("fill_page").default(1),
  /** The first fill reads invoices created after this instant (null: from the first), so it never pages deep. */
  fillAfter: timestamp("fill_after", { withTimezone: true }),
  /** Invoices the first fill has read so far (its progress). */
  fillRead: integer("fill_read").notNull().default(0),
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
