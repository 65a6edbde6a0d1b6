import "server-only";
import { createLoader, createSerializer, type inferParserType, parseAsIsoDate, parseAsStringLiteral } from "nuqs/server";
import { type InvoiceListState, invoiceListParsers, serializeInvoiceListState, toListQuery } from "@/lib/contract/invoice-list-state";
import { addDays, calendarDay, dayOf, daysBetween, startOfDay, todayIn, weekday } from "@/lib/contract/time-zone";

/**
 * The overview's period and the chart's buckets. A period is expressed as the invoice table's own date filter
 * (`created=7d`, or `from`/`to`), and its API range comes from the table's own `toListQuery`, so a count on
 * the overview and the total of the table it links to are the same query by construction.
 */
export const OVERVIEW_PERIODS = ["today", "7d", "30d", "90d", "custom"] as const;
export type OverviewPeriod = (typeof OVERVIEW_PERIODS)[number];
export const PERIOD_LABELS: Record<OverviewPeriod, string> = {
  today: "Today",
  "7d": "7 days",
  "30d": "30 days",
  "90d": "90 days",
  custom: "Custom",
};

export const BUCKET_SIZES = ["day", "week"] as const;
export type BucketSize = (typeof BUCKET_SIZES)[number];

/** A custom period spans at most this many days (a year, leap or not). */
export const MAX_PERIOD_DAYS = 366;
/** Day buckets up to this many days (so 90 days by day works); beyond, weeks. */
export const MAX_DAY_BUCKETS = 92;

export const overviewParsers = {
  period: parseAsStringLiteral(OVERVIEW_PERIODS).withDefault("30d"),
  from: parseAsIsoDate,
  to: parseAsIsoDate,
  bucket: parseAsStringLiteral(BUCKET_SIZES),
};
export type OverviewState = inferParserType<typeof overviewParsers>;
export const loadOverviewState = createLoader(overviewParsers);
export const serializeOverviewState = createSerializer(overviewParsers);

export type ResolvedPeriod = {
  period: OverviewPeriod;
  /** The zone whose days these are (lib/contract/time-zone.ts). */
  timeZone: string;
  /** The first and the last day of the period in that zone, "YYYY-MM-DD". */
  firstDay: string;
  lastDay: string;
  /** The table's date filter for this period: what every link to the table carries. */
  filter: Pick<InvoiceListState, "created" | "from" | "to">;
  /** The list query's range (created_after is exclusive, one millisecond before the first day). */
  createdAfter: string;
  createdBefore: string | undefined;
  /** The first instant counted and the end of the last day (exclusive) in the zone: what the chart's buckets cover. */
  start: number;
  end: number;
  days: number;
  bucket: BucketSize;
  /** Why a custom period was not taken as asked, for the person to read. */
  notice?: string;
  /** With a notice: the custom days as they were typed, so the form gives them back to mend, not the default's. */
  typed?: { from: string; to: string };
};

/** A calendar day as the URL's date parsers hold it (its UTC midnight: a date, not an instant). */
const asDate = (day: string) => new Date(`${day}T00:00:00Z`);

/**
 * The URL's period → the table's filter and the API's range, in days of `timeZone` (the person's zone,
 * lib/contract/time-zone.ts): "Today" is today there, and each period runs from its first day's start to its last
 * day's end there. A custom period needs both days in order and at most MAX_PERIOD_DAYS; otherwise the
 * default (30 days) is shown with a notice saying why.
 */
export function resolvePeriod(
  state: OverviewState,
  timeZone: string,
  now = new Date(),
  /** The URL's `from` and `to` as written: the parsers give null for "2026-02-30", which is not the same as nothing. */
  typed: { from?: unknown; to?: unknown } = {},
): ResolvedPeriod {
  const today = todayIn(timeZone, now);
  let period = state.period;
  let notice: string | undefined;
  let filter: ResolvedPeriod["filter"];
  let asTyped: ResolvedPeriod["typed"];
  if (period === "custom") {
    const from = state.from ? calendarDay(state.from) : null;
    const to = state.to ? calendarDay(state.to) : null;
    const written = (value: unknown) => (typeof value === "string" ? value.trim() : "");
    const unread = [written(typed.from), written(typed.to)].find((value, i) => value && (i === 0 ? from : to) === null);
    // Echoed only when it is written like a day: the address is anyone's text, the notice is the console's.
    if (unread)
      notice = /^\d{4}-\d{2}-\d{2}$/.test(unread) ? `${unread} is not a day of the calendar (YYYY-MM-DD).` : "Write days as YYYY-MM-DD.";
    else if (from === null || to === null) notice = "Choose both the first and the last day of the custom period.";
    else if (from > to) notice = "The first day of the custom period is after its last day.";
    else if (daysBetween(from, to) + 1 > MAX_PERIOD_DAYS) notice = `A custom period spans at most ${MAX_PERIOD_DAYS} days.`;
    else if (from > today) notice = "The custom period starts in the future.";
    filter = notice ? { created: "30d", from: null, to: null } : { created: null, from: asDate(from!), to: asDate(to!) };
    if (notice) {
      period = "30d";
      asTyped = { from: written(typed.from), to: written(typed.to) };
    }
  } else if (period === "today") {
    filter = { created: null, from: asDate(today), to: asDate(today) };
  } else {
    filter = { created: period, from: null, to: null };
  }

  const query = toListQuery({ ...emptyListState(), ...filter }, timeZone, now);
  const start = Date.parse(query.created_after!) + 1;
  const end = query.created_before ? Date.parse(query.created_before) : startOfDay(addDays(today, 1), timeZone);
  const firstDay = dayOf(start, timeZone);
  const lastDay = dayOf(end - 1, timeZone);
  const days = daysBetween(firstDay, lastDay) + 1;
  const bucket: BucketSize = days > MAX_DAY_BUCKETS ? "week" : (state.bucket ?? (days > 31 ? "week" : "day"));
  return {
    period,
    timeZone,
    firstDay,
    lastDay,
    filter,
    createdAfter: query.created_after!,
    createdBefore: query.created_before,
    start,
    end,
    days,
    bucket,
    notice,
    typed: asTyped,
  };
}

function emptyListState(): InvoiceListState {
  const state = Object.fromEntries(
    Object.entries(invoiceListParsers).map(([key, parser]) => [key, "defaultValue" in parser ? parser.defaultValue : null]),
  );
  return state as InvoiceListState;
}

/** The invoice table's URL for this period, with a status and an order of its own if given. */
export function tableHref(
  period: Pick<ResolvedPeriod, "filter">,
  extra: Partial<Pick<InvoiceListState, "status" | "sort_order">> = {},
): string {
  return serializeInvoiceListState("/invoices", { ...period.filter, ...extra });
}

export type Bucket = { start: number; end: number; label: string };

/**
 * The chart's buckets over [start, end): days of `timeZone` (23 or 25 hours long when the clocks change), or
 * ISO weeks (Monday to Sunday) cut to the period, so the first and the last week may be shorter and say so in
 * their label. `start` is a day's start in that zone.
 */
export function buckets(start: number, end: number, size: BucketSize, timeZone: string): Bucket[] {
  const result: Bucket[] = [];
  for (let from = start; from < end; ) {
    const first = dayOf(from, timeZone);
    const last = size === "day" ? first : addDays(first, 6 - weekday(first));
    const to = Math.min(startOfDay(addDays(last, 1), timeZone), end);
    const lastIn = dayOf(to - 1, timeZone);
    result.push({ start: from, end: to, label: lastIn === first ? first : `${first} – ${lastIn}` });
    from = to;
  }
  return result;
}

/** The index of the bucket holding `instant`, or -1 outside them all. Buckets are contiguous and ordered. */
export function bucketIndex(list: Bucket[], instant: number): number {
  if (!Number.isFinite(instant)) return -1;
  let lo = 0;
  let hi = list.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (instant < list[mid].start) hi = mid - 1;
    else if (instant >= list[mid].end) lo = mid + 1;
    else return mid;
  }
  return -1;
}
