import "server-only";
import { count, getTableColumns, type SQL, sql } from "drizzle-orm";
import { searchInvoices } from "@/lib/console/schema";
import type { Invoice, SearchMatch, SearchResult } from "@/lib/contract";
import type { Db } from "@/lib/platform/db";

/** At most this many results: a palette shows a handful, never a list to page through. */
export const SEARCH_LIMIT = 10;
/** A bare UUID or another id's tail finds the invoice when at least this long (shorter would match many). */
const ID_SUFFIX_MIN = 8;

type Summary = typeof searchInvoices.$inferInsert;

const toSummary = (invoice: Invoice): Summary => ({
  invoiceId: invoice.invoice_id,
  orderId: invoice.order_id,
  orderName: invoice.order_name,
  status: invoice.status,
  fiatAmount: invoice.fiat_amount,
  fiatCurrency: invoice.fiat_currency,
  cryptoAmount: invoice.crypto_amount,
  currency: invoice.currency,
  createdAt: invoice.created_at ? new Date(invoice.created_at) : null,
  updatedAt: invoice.updated_at ? new Date(invoice.updated_at) : null,
  indexedAt: new Date(),
  // Normalised by lib/console/upstream: plain JSON, every amount a decimal string.
  document: JSON.stringify(invoice),
});

/**
 * Writes invoices' summaries in one statement. A row is only replaced by one at least as new (by the
 * provider's `updated_at`), so a sync page read before a change made through the console cannot undo it.
 */
export async function indexInvoices(db: Db, invoices: Invoice[]): Promise<void> {
  // One provider page can name an invoice twice (a page that shifted under the walk): the last one wins.
  const rows = [...new Map(invoices.map((invoice) => [invoice.invoice_id, toSummary(invoice)])).values()];
  if (rows.length === 0) return;
  const excluded = (column: string) => sql.raw(`excluded.${column}`);
  await db
    .insert(searchInvoices)
    .values(rows)
    .onConflictDoUpdate({
      target: searchInvoices.invoiceId,
      set: {
        orderId: excluded("order_id"),
        orderName: excluded("order_name"),
        status: excluded("status"),
        fiatAmount: excluded("fiat_amount"),
        fiatCurrency: excluded("fiat_currency"),
        cryptoAmount: excluded("crypto_amount"),
        currency: excluded("currency"),
        createdAt: excluded("created_at"),
        updatedAt: excluded("updated_at"),
        indexedAt: excluded("indexed_at"),
        document: excluded("document"),
      },
      setWhere: sql`${searchInvoices.updatedAt} is null or excluded.updated_at is null or excluded.updated_at >= ${searchInvoices.updatedAt}`,
    });
}

export async function countIndexed(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(searchInvoices);
  return row.n;
}

const likeEscape = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
const reverse = (text: string) => [...text].reverse().join("");

/** Letters and digits of what was typed, each a prefix: "blue moo" finds "Blue moon lamp". */
export function wordsQuery(q: string): string | null {
  const words = q.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.length
    ? words
        .slice(0, 12)
        .map((w) => `${w}:*`)
        .join(" & ")
    : null;
}

/**
 * What support has in hand, ranked: the exact order id first, then an invoice id (exact, or its tail such as
 * the bare UUID of `invoice_<uuid>`), then order ids that start with it (in order), then order names (and
 * order-id parts) holding every word typed, newest change first. Each arm is its own small query with its
 * own limit, so each reads its own index (see the migration) and stops at SEARCH_LIMIT rows — an OR of all
 * four would make PostgreSQL read and rank every match of a common word.
 */
export async function searchIndex(db: Db, rawQuery: string): Promise<SearchResult[]> {
  const q = rawQuery.trim().toLowerCase();
  const t = searchInvoices;
  const words = wordsQuery(q);
  const arms: [SearchMatch, SQL, SQL[]][] = [
    ["order_id", sql`lower(${t.orderId}) = ${q}`, [sql`${t.updatedAt} desc nulls last`]],
    [
      "invoice_id",
      q.length >= ID_SUFFIX_MIN
        ? sql`(lower(${t.invoiceId}) = ${q} or reverse(lower(${t.invoiceId})) like ${`${likeEscape(reverse(q))}%`})`
        : sql`lower(${t.invoiceId}) = ${q}`,
      [sql`${t.updatedAt} desc nulls last`],
    ],
    ["order_id_prefix", sql`lower(${t.orderId}) like ${`${likeEscape(q)}%`}`, [sql`lower(${t.orderId})`]],
    ["words", words ? sql`${t.searchVector} @@ to_tsquery('simple', ${words})` : sql`false`, [sql`${t.updatedAt} desc nulls last`]],
  ];
  // Everything but the vector itself, which only the database needs.
  const { searchVector: _vector, ...columns } = getTableColumns(t);
  const found = new Map<string, SearchResult>();
  for (const [match, where, order] of arms) {
    if (found.size >= SEARCH_LIMIT) break;
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
