import { createLoader, createSerializer, parseAsIsoDate, parseAsStringLiteral, type inferParserType } from "nuqs/server";
import { invoiceListParsers, serializeInvoiceListState, toListQuery, type InvoiceListState } from "@/lib/query/invoice-list-state";
import { isoDay, utcMidnight } from "@/lib/utc-day";

/**
 * The overview's period and the chart's buckets. A period is expressed as the invoice table's own date filter
 * (`created=7d`, or `from`/`to`), and its API range comes from the table's own `toListQuery`, so a count on
 * the overview and the total of the table it links to are the same query by construction.
 */
export const OVERVIEW_PERIODS = ["today", "7d", "30d", "90d", "custom"] as const;
export type OverviewPeriod = (typeof OVERVIEW_PERIODS)[number];
export const PERIOD_LABELS: Record<OverviewPeriod, string> = { today: "Today", "7d": "7 days", "30d": "30 days", "90d": "90 days", custom: "Custom" };

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

const DAY = 86_400_000;

export type ResolvedPeriod = {
  period: OverviewPeriod;
  /** The table's date filter for this period: what every link to the table carries. */
  filter: Pick<InvoiceListState, "created" | "from" | "to">;
  /** The list query's range (created_after is exclusive, one millisecond before the first day). */
  createdAfter: string;
  createdBefore: string | undefined;
  /** The first instant counted and the end of the last day (exclusive): what the chart's buckets cover. */
  start: number;
  end: number;
  days: number;
  bucket: BucketSize;
  /** Why a custom period was not taken as asked, for the person to read. */
  notice?: string;
};

/**
 * The URL's period → the table's filter and the API's range. A custom period needs both days in order and at
 * most MAX_PERIOD_DAYS; otherwise the default (30 days) is shown with a notice saying why.
 */
export function resolvePeriod(state: OverviewState, now = new Date()): ResolvedPeriod {
  const today = utcMidnight(now.getTime());
  let period = state.period;
  let notice: string | undefined;
  let filter: ResolvedPeriod["filter"];
  if (period === "custom") {
    const from = state.from ? utcMidnight(state.from.getTime()) : null;
    const to = state.to ? utcMidnight(state.to.getTime()) : null;
    if (from === null || to === null) notice = "Choose both the first and the last day of the custom period.";
    else if (from > to) notice = "The first day of the custom period is after its last day.";
    else if ((to - from) / DAY + 1 > MAX_PERIOD_DAYS) notice = `A custom period spans at most ${MAX_PERIOD_DAYS} days.`;
    else if (from > today) notice = "The custom period starts in the future.";
    filter = notice ? { created: "30d", from: null, to: null } : { created: null, from: new Date(from!), to: new Date(to!) };
    if (notice) period = "30d";
  } else if (period === "today") {
    filter = { created: null, from: new Date(today), to: new Date(today) };
  } else {
    filter = { created: period, from: null, to: null };
  }

  const query = toListQuery({ ...emptyListState(), ...filter }, now);
  const start = Date.parse(query.created_after!) + 1;
  const end = query.created_before ? Date.parse(query.created_before) : today + DAY;
  const days = Math.round((end - start) / DAY);
  const bucket: BucketSize = days > MAX_DAY_BUCKETS ? "week" : (state.bucket ?? (days > 31 ? "week" : "day"));
  return { period, filter, createdAfter: query.created_after!, createdBefore: query.created_before, start, end, days, bucket, notice };
}

function emptyListState(): InvoiceListState {
  const state = Object.fromEntries(Object.entries(invoiceListParsers).map(([key, parser]) => [key, "defaultValue" in parser ? parser.defaultValue : null]));
  return state as InvoiceListState;
}

/** The invoice table's URL for this period, with a status and an order of its own if given. */
export function tableHref(period: Pick<ResolvedPeriod, "filter">, extra: Partial<Pick<InvoiceListState, "status" | "sort_order">> = {}): string {
  return serializeInvoiceListState("/invoices", { ...period.filter, ...extra });
}

export type Bucket = { start: number; end: number; label: string };

/**
 * The chart's buckets over [start, end): UTC days, or ISO weeks (Monday to Sunday) cut to the period, so the
 * first and the last week may be shorter and say so in their label.
 */
export function buckets(start: number, end: number, size: BucketSize): Bucket[] {
  const result: Bucket[] = [];
  for (let from = start; from < end; ) {
    let to: number;
    if (size === "day") to = from + DAY;
    else {
      const weekday = (new Date(from).getUTCDay() + 6) % 7; // Monday 0 … Sunday 6
      to = Math.min(utcMidnight(from) + (7 - weekday) * DAY, end);
    }
    result.push({ start: from, end: to, label: size === "day" ? isoDay(from) : weekLabel(from, to) });
    from = to;
  }
  return result;
}

function weekLabel(from: number, to: number): string {
  const last = to - DAY;
  return last <= from ? isoDay(from) : `${isoDay(from)} – ${isoDay(last)}`;
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
