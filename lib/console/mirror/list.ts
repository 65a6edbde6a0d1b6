import "server-only";
import { and, eq, getTableColumns, gt, gte, inArray, lt, type SQL, sql } from "drizzle-orm";
import { mirrorDocuments, mirrorTotals, searchInvoices } from "@/lib/console/schema";
import type { Invoice, InvoiceList } from "@/lib/contract";
import { paginationOf } from "@/lib/contract/invoice";
import type { InvoiceViewQuery } from "@/lib/contract/invoice-view";
import { toDecimal } from "@/lib/contract/money";
import { parseJson } from "@/lib/contract/parse-json";
import { isoDay, utcMidnight } from "@/lib/contract/utc-day";
import type { Db } from "@/lib/platform/db";
import { anyTextMatch } from "./text-match";

/*
 * The views no provider answers, read from the console's mirror of the provider's invoices
 * (console.search_invoices, kept by ./sync.ts): several statuses, a text query, and every view's totals.
 */

const t = searchInvoices;
const DAY = 86_400_000;
/** The first and last UTC days the contract's instants reach (years 0001–9999): no whole day of a range goes past them. */
const FIRST_DAY = Date.parse("0001-01-01T00:00:00.000Z");
const LAST_DAY = Date.parse("9999-12-31T00:00:00.000Z");
/** The mirror's rows a view selects, leaving out its created range when `ranged` is false. */
function rowFilter(view: InvoiceViewQuery, ranged = true): SQL | undefined {
  return and(
    view.status ? inArray(t.status, view.status) : undefined,
    view.currency ? sql`lower(${t.currency}) = lower(${view.currency})` : undefined,
    ranged && view.created_after ? gt(t.createdAt, new Date(view.created_after)) : undefined,
    ranged && view.created_before ? lt(t.createdAt, new Date(view.created_before)) : undefined,
    view.q ? anyTextMatch(view.q) : undefined,
    view.ids ? inArray(t.invoiceId, view.ids) : undefined,
  );
}

// Everything but the vector itself, which only the database needs.
const { searchVector: _vector, ...columns } = getTableColumns(t);

const SORT_COLUMNS = { created_at: t.createdAt, updated_at: t.updatedAt, fiat_amount: t.fiatAmount, crypto_amount: t.cryptoAmount };

/**
 * One page of a view, in the provider's list shape. As the sandbox's list (ARCHITECTURE.md §4), fast at any
 * depth: the page's ids are found first (walkedPage, matchedPage), then only those rows and their documents are
 * read. Count and rows share a snapshot.
 */
export async function mirrorList(db: Db, view: InvoiceViewQuery, walk: WalkTuning = DEFAULT_WALK): Promise<InvoiceList> {
  const { total, rows } = await db.transaction(
    async (tx) => {
      const offset = (view.page - 1) * view.page_size;
      const { total, ids } = view.q || view.ids ? await matchedPage(tx, view, offset) : await walkedPage(tx, view, offset, walk);
      if (ids.length === 0) return { total, rows: [] };
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
  return {
    items: rows.map((row) => (row.document ? (parseJson(row.document) as Invoice) : fromColumns(row))),
    pagination: paginationOf(view.page, view.page_size, total, { atLeastOnePage: true }),
  };
}

type Page = { total: number; ids: string[] };

/**
 * Past how many rows a walk by created_at starts at its page's day instead. Tests lower it to reach that on a few
 * rows, and watch where each walk started (null: it found no day to start from).
 */
export type WalkTuning = { fromDayPast: number; onStart?: (start: { day: number; passed: number } | null) => void };
const DEFAULT_WALK: WalkTuning = { fromDayPast: 2_000 };

/**
 * A view without text: counted from the rollups, then walked from the nearer end of its order. Sorted by
 * created_at, a deep page's walk starts at the UTC day that holds it, the rows of the days before counted from
 * the rollups (the sandbox's day buckets, ARCHITECTURE.md §4): the middle of 250,000 rows walked 125,000.
 */
async function walkedPage(db: Db, view: InvoiceViewQuery, offset: number, walk: WalkTuning): Promise<Page> {
  const total = (await mirrorSummary(db, view)).count;
  const limit = Math.max(0, Math.min(view.page_size, total - offset));
  if (limit === 0) return { total, ids: [] };
  const after = total - offset - limit;
  const reverse = after < offset;
  const ascending = (view.sort_order === "asc") !== reverse;
  const key = SORT_COLUMNS[view.sort_by];
  const direction = sql.raw(ascending ? "asc" : "desc");
  const start =
    view.sort_by === "created_at" && (reverse ? after : offset) > walk.fromDayPast
      ? await startDay(db, view, ascending, reverse ? after : offset, walk)
      : null;
  const skip = (reverse ? after : offset) - (start?.passed ?? 0);
  // Walking down from the last day of year 9999, nothing lies after it to leave out.
  const from = !start
    ? undefined
    : ascending
      ? gte(t.createdAt, new Date(start.day))
      : start.day < LAST_DAY
        ? lt(t.createdAt, new Date(start.day + DAY))
        : undefined;
  // One arm per status, each a walk of its (status, key, id) index in PostgreSQL's default place for nulls (last
  // ascending, first descending), merged in order. An arm's own order and limit make it that walk: a member of
  // a UNION ALL with a WHERE is planned on its own, unordered.
  const arms = (view.status ?? [undefined]).map(
    (status) => sql`(select ${t.invoiceId} as id, ${key} as sort_key from ${t}
      where ${and(status ? eq(t.status, status) : undefined, rowFilter({ ...view, status: undefined }), from) ?? sql`true`}
      order by ${key} ${direction}, ${t.invoiceId} ${direction} limit ${skip + limit})`,
  );
  const result = (await db.execute(sql`
    select id from (${sql.join(arms, sql` union all `)}) as arms
    order by sort_key ${direction}, id ${direction} limit ${limit} offset ${skip}`)) as unknown as { rows: { id: string }[] };
  const ids = result.rows.map((row) => row.id);
  return { total, ids: reverse ? ids.reverse() : ids };
}

/**
 * The UTC day a walk by created_at (`ascending` or not) reaches its `skip`th row in, and how many of the view's rows
 * the days before it hold: from the rollups, and the partial days at the range's edges from the mirror. Null when
 * some invoice has no created_at (they sort outside every day) or the range is within one day.
 */
async function startDay(
  db: Db,
  view: InvoiceViewQuery,
  ascending: boolean,
  skip: number,
  walk: WalkTuning,
): Promise<{ day: number; passed: number } | null> {
  const parts = dayParts(view);
  if (!parts) return null;
  const result = (await db.execute(sql`
    select extract(epoch from day)::float8 * 1000 as at, sum(n)::bigint::text as n from (${sql.join(parts, sql` union all `)}) as days (day, n)
    group by day order by day ${sql.raw(ascending ? "asc" : "desc")}`)) as unknown as { rows: { at: number | string; n: string }[] };
  const days = result.rows.map((row) => ({ at: Number(row.at), n: Number(row.n) })).filter((d) => d.n !== 0);
  // Only days of the contract's years: an invoice without created_at (-infinity), or a provider's instant past
  // them, has no day to start from.
  const found = days.every((d) => d.at >= FIRST_DAY && d.at <= LAST_DAY) ? reach(days, skip) : null;
  walk.onStart?.(found);
  return found;
}

/** The day whose rows hold the `skip`th, and how many the days before it hold. */
function reach(days: { at: number; n: number }[], skip: number): { day: number; passed: number } | null {
  let passed = 0;
  for (const { at, n } of days) {
    if (passed + n > skip) return { day: at, passed };
    passed += n;
  }
  return null;
}

/** The view's rows per UTC day, as parts of (day, n): the rollups' whole days, and the range's partial days read from the mirror. */
function dayParts(view: InvoiceViewQuery): SQL[] | null {
  const cut = cutIntoDays(view);
  if (!cut) return null;
  const r = mirrorTotals;
  return [
    sql`select ${r.day}, ${r.count} from ${r} where ${rollupFilter(view, cut.whole)}`,
    ...cut.edges.map((edge) => sql`select ${isoDay(edge.day)}::date, count(*) from ${t} where ${edge.rows}`),
  ];
}

/**
 * A view with text or ids: its matches come from their own indexes, unordered, so they are counted and sorted in
 * one pass (a second count only for a page past the end). Materialized: else the planner may walk a sort index
 * and test every row against the text.
 */
async function matchedPage(db: Db, view: InvoiceViewQuery, offset: number): Promise<Page> {
  const key = SORT_COLUMNS[view.sort_by];
  const direction = sql.raw(view.sort_order === "asc" ? "asc" : "desc");
  const result = (await db.execute(sql`
    with matches as materialized (select ${t.invoiceId} as id, ${key} as sort_key from ${t} where ${rowFilter(view)})
    select id, count(*) over () as matched from matches
    order by sort_key ${direction}, id ${direction} limit ${view.page_size} offset ${offset}`)) as unknown as {
    rows: { id: string; matched: string }[];
  };
  if (result.rows.length) return { total: Number(result.rows[0].matched), ids: result.rows.map((row) => row.id) };
  return { total: (await mirrorSummary(db, view)).count, ids: [] };
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

/** The rollups' rows of a view's statuses and currency on `days`. */
function rollupFilter(view: InvoiceViewQuery, days: SQL | undefined): SQL {
  const r = mirrorTotals;
  return (
    and(
      view.status ? inArray(r.status, view.status) : undefined,
      view.currency ? sql`lower(${r.currency}) = lower(${view.currency})` : undefined,
      days,
    ) ?? sql`true`
  );
}

function rollupPart(view: InvoiceViewQuery, days: SQL | undefined): SQL {
  const r = mirrorTotals;
  return sql`select ${r.status}, ${r.fiatCurrency}, ${r.currency}, ${r.count}, ${r.fiatSum}, ${r.cryptoSum} from ${r} where ${rollupFilter(view, days)}`;
}

/** A view's totals as parts: the all-time rollups, or its range cut into days (or its rows, within one day). */
function rollupParts(view: InvoiceViewQuery): SQL[] {
  if (!view.created_after && !view.created_before) return [rollupPart(view, sql`${mirrorTotals.day} = 'infinity'`)];
  const cut = cutIntoDays(view);
  if (!cut) return [rawPart(rowFilter(view))];
  return [rollupPart(view, cut.whole), ...cut.edges.map((edge) => rawPart(edge.rows))];
}

/**
 * A view's created range cut at UTC midnights: the rollups' days wholly inside it, and the stretches at its edges
 * (at most two partial days: the day each lies in, and its rows in the mirror). Without a range, every day and
 * the invoices without created_at (day '-infinity'). Null when the range holds no whole day.
 */
function cutIntoDays(view: InvoiceViewQuery): { whole: SQL | undefined; edges: { day: number; rows: SQL | undefined }[] } | null {
  const r = mirrorTotals;
  const after = view.created_after ? new Date(view.created_after) : undefined;
  const before = view.created_before ? new Date(view.created_before) : undefined;
  const wholeFrom = after ? utcMidnight(after) + DAY : undefined;
  const wholeTo = before ? utcMidnight(before) : undefined;
  if ((wholeFrom !== undefined && wholeTo !== undefined && wholeFrom >= wholeTo) || (wholeFrom !== undefined && wholeFrom > LAST_DAY))
    return null;
  const unranged = rowFilter({ ...view, created_after: undefined, created_before: undefined }, false);
  const edges = [];
  if (after && wholeFrom !== undefined) {
    edges.push({ day: utcMidnight(after), rows: and(unranged, gt(t.createdAt, after), lt(t.createdAt, new Date(wholeFrom))) });
  }
  if (before && wholeTo !== undefined) {
    edges.push({ day: wholeTo, rows: and(unranged, gte(t.createdAt, new Date(wholeTo)), lt(t.createdAt, before)) });
  }
  return {
    whole: and(
      wholeFrom !== undefined ? gte(r.day, isoDay(wholeFrom)) : after || before ? sql`${r.day} > '-infinity'` : undefined,
      wholeTo !== undefined ? lt(r.day, isoDay(wholeTo)) : sql`${r.day} < 'infinity'`,
    ),
    edges,
  };
}
