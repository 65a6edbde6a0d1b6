import {
  createLoader,
  createParser,
  createSerializer,
  type inferParserType,
  parseAsArrayOf,
  parseAsInteger,
  parseAsNumberLiteral,
  parseAsString,
  parseAsStringLiteral,
} from "nuqs/server";
import { type InvoiceViewQuery, viewText } from "@/lib/contract/invoice-view";
import { CURRENCY_CODE, commaList, SORT_FIELDS, SORT_ORDERS, VIEW_QUERY_MAX, withinApiYears } from "@/lib/contract/list-query";
import { canonicalListSearch } from "@/lib/contract/list-search";
import { ALL_INVOICE_STATUSES } from "@/lib/contract/status";
import { addDays, calendarDay, isCalendarDay, startOfDay, todayIn } from "@/lib/contract/time-zone";

export { canonicalListSearch };

/**
 * The invoice list's state as it lives in the URL, read by the server page and serialised for links and the
 * toolbar's form. A value that does not parse (page=abc) falls back to its default instead of breaking the
 * page, and the page says so.
 */
export const PAGE_SIZES = [10, 20, 50, 100] as const;
export const CREATED_PRESETS = { "7d": 7, "30d": 30, "90d": 90, "12m": 365 } as const;
export type CreatedPreset = keyof typeof CREATED_PRESETS;

const parseAsCurrencyCode = createParser({
  parse: (value) => (CURRENCY_CODE.test(value) ? value : null),
  serialize: (value: string) => value,
});

/** A day as YYYY-MM-DD, of the calendar: "2026-02-30" is not one. */
const parseAsCalendarDay = createParser({
  // A year past 9999 is a day of the calendar no Date holds: not read, as any other.
  parse: (value) => {
    const day = isCalendarDay(value) ? new Date(`${value}T00:00:00.000Z`) : null;
    return day && !Number.isNaN(day.getTime()) ? day : null;
  },
  serialize: (value: Date) => value.toISOString().slice(0, 10),
  eq: (a: Date, b: Date) => a.getTime() === b.getTime(),
});

export const invoiceListParsers = {
  /** One status or several (`status=pending,paid_partial`): several are answered from the mirror. */
  status: parseAsArrayOf(parseAsStringLiteral(ALL_INVOICE_STATUSES)),
  /** Text inside the list: an order id, words of the order name, or an invoice id (from the mirror). */
  q: parseAsString,
  currency: parseAsCurrencyCode,
  created: parseAsStringLiteral(Object.keys(CREATED_PRESETS) as CreatedPreset[]),
  from: parseAsCalendarDay,
  to: parseAsCalendarDay,
  page: parseAsInteger.withDefault(1),
  page_size: parseAsNumberLiteral(PAGE_SIZES).withDefault(20),
  sort_by: parseAsStringLiteral(SORT_FIELDS).withDefault("created_at"),
  sort_order: parseAsStringLiteral(SORT_ORDERS).withDefault("desc"),
};

export type InvoiceListState = inferParserType<typeof invoiceListParsers>;

/** The state as a query string ("?page=2&status=paid"), defaults left out: what "← All invoices" links to. */
export const serializeInvoiceListState = createSerializer(invoiceListParsers);

/** Filters only: what "reset" clears and what sends the view back to page 1 when it changes. */
export const FILTER_KEYS = ["status", "q", "currency", "created", "from", "to"] as const;

export function hasFilters(state: InvoiceListState): boolean {
  return FILTER_KEYS.some((key) => state[key] !== null);
}

/**
 * URL state → the API's list query. Date filters are whole days in `timeZone`, the zone the person counts
 * days in (lib/contract/time-zone.ts): "last 7 days" is today there and the six before it, and a custom range includes
 * both of its days, from the first one's start to the last one's end in that zone (23 or 25 hours on a day
 * the clocks change). A value the API would refuse (a page beyond any
 * count, the year 10000) falls back to its default, so a hand-edited URL never breaks the page.
 *
 * The parsers already hold every other value to what the API accepts; the two checks here are the only rules
 * of invoiceListQuerySchema they cannot express. invoice-list-state.test.ts checks that the result always passes the schema unchanged.
 */
export function toListQuery(state: InvoiceListState, timeZone: string, now = new Date()): InvoiceViewQuery {
  const { page, created_after, created_before, ...rest } = buildListQuery(state, timeZone, now);
  return {
    ...rest,
    ...(created_after !== undefined && withinApiYears(created_after) ? { created_after } : {}),
    ...(created_before !== undefined && withinApiYears(created_before) ? { created_before } : {}),
    page: Number.isSafeInteger(page) ? page : 1,
  };
}

/** The first instant of `day` in `timeZone`, or undefined for a day no clock can place (a hand-edited URL's year 300000). */
function dayStart(day: string, timeZone: string): number | undefined {
  try {
    return startOfDay(day, timeZone);
  } catch {
    return undefined;
  }
}

function buildListQuery(state: InvoiceListState, timeZone: string, now: Date): InvoiceViewQuery {
  let after: number | undefined;
  let before: number | undefined;
  if (state.created) {
    after = startOfDay(addDays(todayIn(timeZone, now), -(CREATED_PRESETS[state.created] - 1)), timeZone);
  } else {
    const from = state.from && calendarDay(state.from);
    const to = state.to && calendarDay(state.to);
    if (from) after = dayStart(from, timeZone);
    if (to) before = dayStart(addDays(to, 1), timeZone);
  }
  // An inverted range selects nothing sensible: the toolbar says so, and the list ignores both ends.
  if (after !== undefined && before !== undefined && after >= before) after = before = undefined;
  return {
    ...(state.status?.length ? { status: [...new Set(state.status)] } : {}),
    ...(state.q && viewText(state.q) ? { q: viewText(state.q).slice(0, VIEW_QUERY_MAX) } : {}),
    ...(state.currency ? { currency: state.currency } : {}),
    // created_after is exclusive: one millisecond earlier keeps an invoice made exactly at midnight.
    ...(after !== undefined ? { created_after: new Date(after - 1).toISOString() } : {}),
    ...(before !== undefined ? { created_before: new Date(before).toISOString() } : {}),
    page: Math.max(1, state.page),
    page_size: state.page_size,
    sort_by: state.sort_by,
    sort_order: state.sort_order,
  };
}

/** Reads the state from a page's `searchParams` on the server, with the same parsers as the client. */
export const loadInvoiceListState = createLoader(invoiceListParsers);

/** A page's raw search parameters, as Next.js hands them over (a key given twice is an array). */
export type RawSearch = Record<string, string | string[] | undefined>;

const SORT_LABELS: Record<(typeof SORT_FIELDS)[number], string> = {
  created_at: "creation date",
  updated_at: "last update",
  fiat_amount: "amount",
  crypto_amount: "crypto amount",
};

/** Every (key, value) pair of a page's raw search parameters. */
export function searchEntries(search: RawSearch): [string, string][] {
  return Object.entries(search).flatMap(([key, value]) =>
    value === undefined ? [] : (Array.isArray(value) ? value : [value]).map((v): [string, string] => [key, v]),
  );
}

/** What each value that does not read says, and what the list shows instead. */
const UNREAD: Record<Exclude<keyof typeof invoiceListParsers, "status" | "q">, string> = {
  currency: "is not a currency code; showing all currencies",
  created: "is not a period (7d, 30d, 90d or 12m); showing any time",
  from: "in From is not a day of the calendar (YYYY-MM-DD); the list starts at the first invoice",
  to: "in To is not a day of the calendar (YYYY-MM-DD); the list runs to the latest invoice",
  page: "is not a page number; showing page 1",
  page_size: `is not a page size (${PAGE_SIZES.join(", ")}); showing 20 a page`,
  sort_by: "cannot be sorted by; sorted by creation date",
  sort_order: "is not an order (asc or desc); newest first",
};

const isStatus = (value: string): value is (typeof ALL_INVOICE_STATUSES)[number] =>
  (ALL_INVOICE_STATUSES as readonly string[]).includes(value);

/**
 * The list's state from a URL, read once: each value by its parser, a sentence for each one it could not read
 * (`?status=bogus` is said, not silently dropped), and `canonical`: the canonical query string when the URL was a
 * form's submission (empty fields, repeated statuses) that reads the same written that way, else null.
 */
export function readInvoiceListSearch(search: RawSearch): {
  state: InvoiceListState;
  notices: string[];
  canonical: string | null;
  /** What was given for From and To that is not a day: shown back in its field, so it can be put right. */
  unreadDays: { from?: string; to?: string };
} {
  const entries = searchEntries(search);
  const canonicalSearch = canonicalListSearch(entries);
  const params = new URLSearchParams(canonicalSearch);
  const notices: string[] = [];
  const quote = (value: string) => `“${value.length > 40 ? `${value.slice(0, 40)}…` : value}”`;
  const given = commaList(params.get("status") ?? "");
  const unknown = given.filter((s) => !isStatus(s));
  if (unknown.length > 0) {
    notices.push(
      `${unknown.map(quote).join(", ")} ${unknown.length === 1 ? "is not a status" : "are not statuses"}; ${
        unknown.length === given.length ? "showing all statuses" : "showing the others"
      }.`,
    );
  }
  const statuses = given.filter(isStatus);
  // Statuses none of which is known select none: all statuses, as the notice says.
  const state = { status: statuses.length ? statuses : null, q: params.get("q") } as InvoiceListState;
  const unreadDays: { from?: string; to?: string } = {};
  for (const key of Object.keys(UNREAD) as (keyof typeof UNREAD)[]) {
    const value = params.get(key);
    const parser = invoiceListParsers[key] as { parse: (v: string) => unknown; defaultValue?: unknown };
    const parsed = value === null ? null : parser.parse(value);
    if (value !== null && (parsed === null || (key === "page" && (parsed as number) < 1))) {
      notices.push(`${quote(value)} ${UNREAD[key]}.`);
      if (key === "from" || key === "to") unreadDays[key] = value.slice(0, 40);
    }
    (state as Record<string, unknown>)[key] = parsed ?? parser.defaultValue ?? null;
  }
  // A valid URL that is not written the canonical way (a form's submission): one URL for one view.
  const asGiven = new URLSearchParams(entries).toString().replaceAll("%2C", ",");
  const canonical = notices.length === 0 && `?${asGiven}` !== canonicalSearch && asGiven !== canonicalSearch ? canonicalSearch : null;
  return { state, notices, canonical, unreadDays };
}

/** The list's query string for `state` with `patch` applied; any change but the page returns to page 1. */
export function listSearchWith(
  state: InvoiceListState,
  patch: Partial<{ [K in keyof InvoiceListState]: InvoiceListState[K] | null }>,
): string {
  const resetsPage = Object.keys(patch).some((key) => key !== "page");
  return serializeInvoiceListState({ ...state, ...(resetsPage ? { page: null } : {}), ...patch });
}

/** Which way a click on a column's header sorts: the other way if it is the sorted one, else high to low first. */
export function nextSort(
  state: InvoiceListState,
  field: (typeof SORT_FIELDS)[number],
): { sort_by: typeof field; sort_order: "asc" | "desc" } {
  return { sort_by: field, sort_order: state.sort_by === field && state.sort_order === "desc" ? "asc" : "desc" };
}

export { SORT_LABELS };
