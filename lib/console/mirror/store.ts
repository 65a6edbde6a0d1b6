import "server-only";
import { count, getTableColumns, inArray, type SQL, sql } from "drizzle-orm";
import { mirrorDocuments, searchInvoices } from "@/lib/console/schema";
import type { Invoice, SearchMatch, SearchResult } from "@/lib/contract";
import type { Db } from "@/lib/platform/db";
import { storableJson } from "@/lib/platform/db/storable";
import { textMatch, vectorMatches, wordsQuery } from "./text-match";

/** At most this many results: a palette shows a handful, never a list to page through. */
export const SEARCH_LIMIT = 10;

/**
 * Writes invoices in one statement: the invoices as one JSON parameter, each element's text stored as its document
 * and its columns read from it there (a fill writes hundreds at a time; building rows beside the documents cost
 * more than the database's work, and sent every invoice twice). A row is only replaced by one at least as new (by
 * the provider's `updated_at`), so a sync page read before a change made through the console cannot undo it.
 * Normalised by lib/console/upstream: every amount a decimal string, every instant canonical.
 */
export async function indexInvoices(db: Db, invoices: Invoice[]): Promise<void> {
  // One provider page can name an invoice twice (a page that shifted under the walk): the last one wins.
  const unique = [...new Map(invoices.map((invoice) => [invoice.invoice_id, invoice])).values()];
  if (unique.length === 0) return;
  // The document goes with its row: only where the row was written (not where a newer one was kept).
  await db.execute(sql`
    with d as materialized (
      select e::text as document, e::jsonb as j from json_array_elements(${storableJson(unique)}::json) as e
    ), r as materialized (
      select j->>'invoice_id' as invoice_id, j->>'order_id' as order_id, j->>'order_name' as order_name, j->>'status' as status,
        (j->>'fiat_amount')::numeric as fiat_amount, j->>'fiat_currency' as fiat_currency, (j->>'crypto_amount')::numeric as crypto_amount,
        j->>'currency' as currency, (j->>'created_at')::timestamptz as created_at, (j->>'updated_at')::timestamptz as updated_at, document
      from d
    ), written as (
      insert into ${searchInvoices} as t
        (invoice_id, order_id, order_name, status, fiat_amount, fiat_currency, crypto_amount, currency, created_at, updated_at, indexed_at)
      select invoice_id, order_id, order_name, status, fiat_amount, fiat_currency, crypto_amount, currency, created_at, updated_at, now() from r
      on conflict (invoice_id) do update set
        order_id = excluded.order_id, order_name = excluded.order_name, status = excluded.status,
        fiat_amount = excluded.fiat_amount, fiat_currency = excluded.fiat_currency, crypto_amount = excluded.crypto_amount,
        currency = excluded.currency, created_at = excluded.created_at, updated_at = excluded.updated_at, indexed_at = excluded.indexed_at
      where t.updated_at is null or excluded.updated_at is null or excluded.updated_at >= t.updated_at
      returning invoice_id
    )
    insert into ${mirrorDocuments} (invoice_id, document)
    select r.invoice_id, r.document from r join written using (invoice_id)
    on conflict (invoice_id) do update set document = excluded.document`);
}

export async function countIndexed(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(searchInvoices);
  return row.n;
}

/**
 * What support has in hand, ranked: the exact order id first, then an invoice id (exact, or its tail such as
 * the bare UUID of `invoice_<uuid>`), then order ids that start with it (the highest first), then order names (and
 * order-id parts) holding every word typed, newest change first. Each arm is its own small query with its
 * own limit, so each reads its own index (see the migration) and stops at SEARCH_LIMIT rows — an OR of all
 * four would make PostgreSQL read and rank every match of a common word.
 */
export async function searchIndex(db: Db, rawQuery: string): Promise<SearchResult[]> {
  const t = searchInvoices;
  const m = textMatch(rawQuery);
  const arms: [SearchMatch, () => Promise<SQL>, SQL[]][] = [
    ["order_id", async () => m.orderId, [sql`${t.updatedAt} desc nulls last`]],
    ["invoice_id", async () => m.invoiceId, [sql`${t.updatedAt} desc nulls last`]],
    // The prefix's own index (text_pattern_ops sorts by ~<~) walked backward from the prefix's end and stopped at
    // the limit, where the collation's order sorted every match (all 1,000,000 for "ORD": 0.4 s, now 0.2 ms).
    // Backward: order ids that count up put the newest first, as every other arm does.
    ["order_id_prefix", async () => m.orderIdPrefix, [sql`lower(${t.orderId}) using ~>~`]],
    ["words", () => recentWordMatches(db, rawQuery, m.words), [sql`${t.updatedAt} desc nulls last`]],
  ];
  // Everything but the vector itself, which only the database needs.
  const { searchVector: _vector, ...columns } = getTableColumns(t);
  const found = new Map<string, SearchResult>();
  for (const [match, condition, order] of arms) {
    if (found.size >= SEARCH_LIMIT) break;
    const where = await condition();
    const rows = await db
      .select(columns)
      .from(t)
      .where(where)
      .orderBy(...order, t.invoiceId)
      .limit(SEARCH_LIMIT);
    for (const r of rows) {
      if (found.has(r.invoiceId)) continue;
      found.set(r.invoiceId, {
        invoice_id: r.invoiceId,
        order_id: r.orderId,
        order_name: r.orderName,
        status: r.status,
        fiat_amount: r.fiatAmount,
        fiat_currency: r.fiatCurrency,
        crypto_amount: r.cryptoAmount,
        currency: r.currency,
        created_at: r.createdAt?.toISOString() ?? null,
        updated_at: r.updatedAt?.toISOString() ?? null,
        match,
      });
    }
  }
  return [...found.values()].slice(0, SEARCH_LIMIT);
}

/** The most recent changes the words arm looks among first: a word on one invoice in 500 fills its page there. */
const RECENT_WINDOW = 5_000;

/**
 * The words arm's condition: the ids of its page when the most recent changes hold a whole page of matches (a few
 * milliseconds), else every match. Sorting every match of a common word by recency read them all: 28,000 rows
 * and 0.4 s at 1,000,000 invoices. A newer match cannot lie outside the window, so a full page there is exact.
 */
export async function recentWordMatches(db: Db, rawQuery: string, words: SQL): Promise<SQL> {
  const t = searchInvoices;
  const query = wordsQuery(rawQuery.trim());
  if (!query) return words;
  const recent = (await db.execute(sql`
    select invoice_id from (
      select ${t.invoiceId}, ${t.updatedAt}, ${t.searchVector} from ${t} where ${t.updatedAt} is not null
      order by ${t.updatedAt} desc, ${t.invoiceId} limit ${RECENT_WINDOW}
    ) as recent
    where ${vectorMatches(sql.identifier("search_vector"), query)}
    order by updated_at desc, invoice_id limit ${SEARCH_LIMIT}`)) as unknown as { rows: { invoice_id: string }[] };
  return recent.rows.length < SEARCH_LIMIT
    ? words
    : inArray(
        t.invoiceId,
        recent.rows.map((row) => row.invoice_id),
      );
}

/**
 * Which of these order ids an indexed invoice has: what the provider refuses again as already recorded (its
 * order ids are unique a merchant). Read through the lowercased index, then compared exactly.
 */
export async function recordedOrderIds(db: Db, orderIds: readonly string[]): Promise<string[]> {
  if (orderIds.length === 0) return [];
  const t = searchInvoices;
  const lowered = [...new Set(orderIds.map((id) => id.toLowerCase()))];
  const rows = await db
    .selectDistinct({ orderId: t.orderId })
    .from(t)
    .where(sql`lower(${t.orderId}) = any(${sql.param(lowered)}::text[]) and ${t.orderId} = any(${sql.param([...orderIds])}::text[])`);
  return rows.map((r) => r.orderId!).filter(Boolean);
}

/** The order ids the console's index holds for these invoices, by invoice id (one not indexed yet, or without one, is left out). */
export async function indexedOrderIds(db: Db, invoiceIds: readonly string[]): Promise<Map<string, string>> {
  if (invoiceIds.length === 0) return new Map();
  const t = searchInvoices;
  const rows = await db
    .select({ invoiceId: t.invoiceId, orderId: t.orderId })
    .from(t)
    .where(inArray(t.invoiceId, [...new Set(invoiceIds)]));
  return new Map(rows.flatMap((row) => (row.orderId ? [[row.invoiceId, row.orderId] as const] : [])));
}
