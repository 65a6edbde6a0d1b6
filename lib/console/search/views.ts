import "server-only";
import { and, eq, getTableColumns, gt, gte, inArray, lt, type SQL, sql } from "drizzle-orm";
import { mirrorDocuments, mirrorTotals, searchInvoices } from "@/lib/console/schema";
import type { Invoice, InvoiceList } from "@/lib/contract";
import type { InvoiceViewQuery } from "@/lib/contract/invoice-view";
import { toDecimal } from "@/lib/contract/money";
import { isoDay, utcMidnight } from "@/lib/contract/utc-day";
import type { Db } from "@/lib/platform/db";
import { wordsQuery } from "./store";

/*
 * The views no provider answers (issue 24), read from the console's mirror of the provider's invoices
 * (console.search_invoices, kept by ./sync.ts): several statuses, a text query, and every view's totals.
 */

const t = searchInvoices;
const DAY = 86_400_000;
/** The last UTC day the contract's instants reach (years 0001–9999): no whole day of a range goes past it. */
const LAST_DAY = Date.parse("9999-12-31T00:00:00.000Z");
/** A bare UUID or another id's tail finds the invoice when at least this long (as the search palette). */
const ID_SUFFIX_MIN = 8;

const likeEscape = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
const reverse = (text: string) => [...text].reverse().join("");

/** What `q` finds: the order id (exact or its start), the invoice id (exact or its tail), or every word of the order name. */
function textMatch(raw: string): SQL {
  const q = raw.trim().toLowerCase();
  const words = wordsQuery(q);
  return sql`(${sql.join(
    [
      sql`lower(${t.orderId}) like ${`${likeEscape(q)}%`}`,
      q.length >= ID_SUFFIX_MIN
        ? sql`(lower(${t.invoiceId}) = ${q} or reverse(lower(${t.invoiceId})) like ${`${likeEscape(reverse(q))}%`})`
        : sql`lower(${t.invoiceId}) = ${q}`,
      ...(words ? [sql`${t.searchVector} @@ to_tsquery('simple', ${words})`] : []),
    ],
    sql` or `,
  )})`;
}

/** The mirror's rows a view selects, leaving out its created range when `ranged` is false. */
function rowFilter(view: InvoiceViewQuery, ranged = true): SQL | undefined {
  return and(
    view.status ? inArray(t.status, view.status) : undefined,
    view.currency ? sql`lower(${t.currency}) = lower(${view.currency})` : undefined,
    ranged && view.created_after ? gt(t.createdAt, new Date(view.created_after)) : undefined,
    ranged && view.created_before ? lt(t.createdAt, new Date(view.created_before)) : undefined,
    view.q ? textMatch(view.q) : undefined,
    view.ids ? inArray(t.invoiceId, view.ids) : undefined,
  );
}

// Everything but the vector itself, which only the database needs.
const { searchVector: _vector, ...columns } = getTableColumns(t);

const SORT_COLUMNS = { created_at: t.createdAt, updated_at: t.updatedAt, fiat_amount: t.fiatAmount, crypto_amount: t.cryptoAmount };

/**
 * One page of a view, in the provider's list shape; the count is the summary's (rollups, no row count). As the
 * sandbox's list (ARCHITECTURE.md §4), fast at any depth: the page's ids are found by walking from the nearer
 * end of the order, in one sort index per status merged in order (each holds the currency and created_at it
 * filters by, so the walk never reads the table), and only those rows are read. Count and rows share a snapshot.
 */
export async function mirrorList(db: Db, view: InvoiceViewQuery): Promise<InvoiceList> {
  const { total, rows } = await db.transaction(
    async (tx) => {
      const total = (await mirrorSummary(tx, view)).count;
      const offset = (view.page - 1) * view.page_size;
      const limit = Math.max(0, Math.min(view.page_size, total - offset));
      if (limit === 0) return { total, rows: [] };
      const after = total - offset - limit;
      const reverse = after < offset;
      const ids = await pageIds(tx, view, { skip: reverse ? after : offset, limit, ascending: (view.sort_order === "asc") !== reverse });
      if (reverse) ids.reverse();
      const read = await tx
        .select({ ...columns, document: mirrorDocuments.document })
        .from(t)
        .leftJoin(mirrorDocuments, eq(mirrorDocuments.invoiceId, t.invoiceId))
        .where(inArray(t.invoiceId, ids));
      const found = new Map(read.map((row) => [row.invoiceId, row]));
      return { total, rows: ids.flatMap((id) => found.get(id) ?? []) };
    },
    { isolationLevel: "repeatable read", accessMode: "read only" },
  );
  const totalPages = Math.max(1, Math.ceil(total / view.page_size));
  return {
    items: rows.map((row) => (row.document ? (JSON.parse(row.document) as Invoice) : fromColumns(row))),
    pagination: {
      current_page: view.page,
      page_size: view.page_size,
      total_pages: totalPages,
      total_records: total,
      has_next: view.page < totalPages,
      has_previous: view.page > 1,
    },
  };
}

/**
 * The ids of `limit` rows after the first `skip` of the view in this order. Without a text query or ids, one arm
 * per status, each a stretch of its (status, key, id) index, which PostgreSQL merges in order; a text query's
 * matches come from its own indexes and are sorted.
 */
async function pageIds(db: Db, view: InvoiceViewQuery, walk: { skip: number; limit: number; ascending: boolean }): Promise<string[]> {
  const key = SORT_COLUMNS[view.sort_by];
  const direction = sql.raw(walk.ascending ? "asc" : "desc");
  const arm = (where: SQL | undefined) =>
    sql`select ${t.invoiceId} as id, ${key} as sort_key from ${t} ${where ? sql`where ${where}` : sql``}`;
  const source =
    view.q || view.ids || !view.status
      ? arm(rowFilter(view))
      : sql.join(
          view.status.map((status) => arm(and(eq(t.status, status), rowFilter({ ...view, status: undefined })))),
          sql` union all `,
        );
  // PostgreSQL's default place for nulls (last ascending, first descending): each sort index serves both ways.
  const result = (await db.execute(sql`
    select id from (${source}) as arms order by sort_key ${direction}, id ${direction} limit ${walk.limit} offset ${walk.skip}`)) as unknown as {
    rows: { id: string }[];
  };
  return result.rows.map((row) => row.id);
}

/** A row written before the mirror kept whole invoices (its next sync replaces it): what the columns hold. */
function fromColumns(row: Omit<typeof searchInvoices.$inferSelect, "searchVector">): Invoice {
  return {
    invoice_id: row.invoiceId,
    order_id: row.orderId,
    order_name: row.orderName,
    status: row.status,
    fiat_amount: row.fiatAmount === null ? null : toDecimal(row.fiatAmount),
    fiat_currency: row.fiatCurrency ?? "",
    crypto_amount: row.cryptoAmount === null ? null : toDecimal(row.cryptoAmount),
    currency: row.currency,
    allowed_error_percent: null,
    callback_url: null,
    created_at: row.createdAt?.toISOString() ?? null,
    updated_at: row.updatedAt?.toISOString() ?? null,
    expires_at: null,
    priced_in: null,
    payment: null,
    provider_fields: [],
  };
}

export type MirrorTotals = {
  count: number;
  fiat: Record<string, string>;
  crypto: Record<string, string>;
  /** How many of them are in each status (what a bulk cancel's confirmation names). */
  statuses: Record<string, number>;
  /** How many of them are in each fiat currency (the overview sums EUR and counts the others). */
  fiatCounts: Record<string, number>;
};

/**
 * How many invoices a view holds and their sums, exactly (PostgreSQL's numeric, read as text). Without a text
 * query, from the rollups (console.mirror_totals): the whole UTC days inside the created range, or the all-time
 * rows, plus the invoices of the partial days at its edges read from the mirror itself. With one, a plain sum
 * over the rows it matches. One statement: one snapshot.
 */
export async function mirrorSummary(db: Db, view: InvoiceViewQuery): Promise<MirrorTotals> {
  const parts = view.q || view.ids ? [rawPart(rowFilter(view))] : rollupParts(view);
  const result = (await db.execute(sql`
    with parts (status, fiat_currency, currency, n, fiat, crypto) as (${sql.join(parts, sql` union all `)})
    select grouping(status, fiat_currency, currency) as set, status, fiat_currency, currency,
           sum(n)::bigint::text as n, trim_scale(sum(fiat))::text as fiat, trim_scale(sum(crypto))::text as crypto
    from parts group by grouping sets ((fiat_currency), (currency), (status), ())`)) as unknown as {
    rows: {
      set: number;
      status: string;
      fiat_currency: string;
      currency: string;
      n: string | null;
      fiat: string | null;
      crypto: string | null;
    }[];
  };
  // grouping(status, fiat_currency, currency): a bit set for each column left out of the row's set.
  const SET = { all: 0b111, byStatus: 0b011, byFiat: 0b101, byCrypto: 0b110 };
  const totals: MirrorTotals = { count: 0, fiat: {}, crypto: {}, statuses: {}, fiatCounts: {} };
  for (const row of result.rows) {
    const n = Number(row.n ?? 0);
    const set = Number(row.set);
    if (set === SET.all) totals.count = n;
    else if (n === 0) continue;
    else if (set === SET.byFiat && row.fiat_currency) {
      totals.fiat[row.fiat_currency] = toDecimal(row.fiat ?? "0") ?? "0";
      totals.fiatCounts[row.fiat_currency] = n;
    } else if (set === SET.byCrypto && row.currency) totals.crypto[row.currency] = toDecimal(row.crypto ?? "0") ?? "0";
    else if (set === SET.byStatus && row.status) totals.statuses[row.status] = n;
  }
  return totals;
}

/** The mirror's own rows, one each, in the parts' shape. */
function rawPart(where: SQL | undefined): SQL {
  return sql`select coalesce(${t.status}, ''), coalesce(${t.fiatCurrency}, ''), coalesce(${t.currency}, ''), 1::bigint, coalesce(${t.fiatAmount}, 0), coalesce(${t.cryptoAmount}, 0)
    from ${t} ${where ? sql`where ${where}` : sql``}`;
}

function rollupPart(view: InvoiceViewQuery, days: SQL): SQL {
  const r = mirrorTotals;
  const where = and(
    view.status ? inArray(r.status, view.status) : undefined,
    view.currency ? sql`lower(${r.currency}) = lower(${view.currency})` : undefined,
    days,
  );
  return sql`select ${r.status}, ${r.fiatCurrency}, ${r.currency}, ${r.count}, ${r.fiatSum}, ${r.cryptoSum} from ${r} where ${where}`;
}

/**
 * A created range cut into the whole UTC days inside it (summed from the rollups) and the stretches at its
 * edges (at most two partial days, read from the mirror by its created index).
 */
function rollupParts(view: InvoiceViewQuery): SQL[] {
  const r = mirrorTotals;
  const after = view.created_after ? new Date(view.created_after) : undefined;
  const before = view.created_before ? new Date(view.created_before) : undefined;
  if (!after && !before) return [rollupPart(view, sql`${r.day} = 'infinity'`)];
  const wholeFrom = after ? utcMidnight(after) + DAY : undefined;
  const wholeTo = before ? utcMidnight(before) : undefined;
  const unfiltered = { ...view, created_after: undefined, created_before: undefined };
  if ((wholeFrom !== undefined && wholeTo !== undefined && wholeFrom >= wholeTo) || (wholeFrom !== undefined && wholeFrom > LAST_DAY)) {
    return [rawPart(rowFilter(view))];
  }
  const parts = [
    rollupPart(
      view,
      and(
        wholeFrom !== undefined ? gte(r.day, isoDay(wholeFrom)) : sql`${r.day} > '-infinity'`,
        wholeTo !== undefined ? lt(r.day, isoDay(wholeTo)) : sql`${r.day} < 'infinity'`,
      )!,
    ),
  ];
  if (after && wholeFrom !== undefined) {
    parts.push(rawPart(and(rowFilter(unfiltered, false), gt(t.createdAt, after), lt(t.createdAt, new Date(wholeFrom)))));
  }
  if (before && wholeTo !== undefined) {
    parts.push(rawPart(and(rowFilter(unfiltered, false), gte(t.createdAt, new Date(wholeTo)), lt(t.createdAt, before))));
  }
  return parts;
}
