import "server-only";
import {
  ALL_INVOICE_STATUSES,
  type AnyInvoiceStatus,
  addDecimals,
  type Decimal,
  type Invoice,
  type InvoiceList,
  type InvoiceListQuery,
} from "@/lib/contract";
import { addDays, startOfDay, todayIn } from "@/lib/contract/time-zone";
import { type BucketSize, bucketIndex, buckets, type ResolvedPeriod } from "./period";

/**
 * The overview's figures, from nothing but the spec's `GET /invoices` (no new provider endpoint): counts from
 * `pagination.total_records` of one-row pages, sums from walking pages of 100. Every card makes a bounded
 * number of calls, whatever the data:
 *
 * - counts per status: one call per status (7);
 * - completed volume: at most VOLUME_PAGE_BUDGET pages of 100 to sum; a period with more completed invoices
 *   than that shows counts per bucket instead (one call per bucket, at most MAX_COUNT_BUCKETS + 1);
 * - attention queue: two calls.
 */
export const VOLUME_PAGE_BUDGET = 20;
export const VOLUME_PAGE_SIZE = 100;
/** Counts per bucket cost one call each: more day buckets than this are counted by week. */
export const MAX_COUNT_BUCKETS = 31;
export const ATTENTION_LIMIT = 10;
/** Calls in flight at once per card, so one view never floods the provider. */
const CONCURRENCY = 4;

export type ListInvoices = (query: InvoiceListQuery) => Promise<InvoiceList>;

const base = { page: 1, sort_by: "created_at", sort_order: "desc" } as const;

export type StatusCount = { status: AnyInvoiceStatus; count: number };

/** Invoices per status created in the period: the same query as the table's for that status, one row long. */
export async function statusCounts(
  list: ListInvoices,
  period: Pick<ResolvedPeriod, "createdAfter" | "createdBefore">,
): Promise<StatusCount[]> {
  return Promise.all(
    ALL_INVOICE_STATUSES.map(async (status) => {
      const { pagination } = await list({ ...base, status, page_size: 1, ...range(period.createdAfter, period.createdBefore) });
      return { status, count: pagination.total_records };
    }),
  );
}

/** `sumEur`: the exact decimal sum (lib/contract/money.ts) of the bucket's EUR amounts, as a string. */
export type VolumePoint = { label: string; start: number; count: number; sumEur: Decimal | null };
export type Volume = {
  /** "sums": EUR per bucket from every completed invoice; "counts": too many to sum within the budget. */
  kind: "sums" | "counts";
  bucket: BucketSize;
  points: VolumePoint[];
  completed: number;
  totalEur: Decimal | null;
  /** Completed invoices in another fiat currency or without an amount: counted, not summed. */
  notSummed: number;
  calls: number;
};

/**
 * Completed volume per bucket. The walk sorts by creation date ascending with a fixed upper bound (the
 * period's end, or the moment the walk starts), so an invoice created or completed meanwhile can neither
 * shift a page nor appear twice.
 */
export async function completedVolume(
  list: ListInvoices,
  period: Pick<ResolvedPeriod, "createdAfter" | "createdBefore" | "start" | "end" | "bucket" | "timeZone" | "days">,
  { now = Date.now(), pageBudget = VOLUME_PAGE_BUDGET } = {},
): Promise<Volume> {
  const upper = period.createdBefore ?? new Date(Math.min(now, period.end)).toISOString();
  const walk = (page: number) =>
    list({
      status: "completed",
      page,
      page_size: VOLUME_PAGE_SIZE,
      sort_by: "created_at",
      sort_order: "asc",
      ...range(period.createdAfter, upper),
    });
  let calls = 1;
  const first = await walk(1);
  const completed = first.pagination.total_records;
  const pages = Math.ceil(completed / VOLUME_PAGE_SIZE);

  if (pages <= pageBudget) {
    const rest = await mapLimit(
      Array.from({ length: Math.max(0, pages - 1) }, (_, i) => i + 2),
      (page) => walk(page),
    );
    calls += rest.length;
    const slots = buckets(period.start, period.end, period.bucket, period.timeZone);
    const points: VolumePoint[] = slots.map((b) => ({ label: b.label, start: b.start, count: 0, sumEur: "0" }));
    const seen = new Set<string>();
    let notSummed = 0;
    for (const invoice of [first, ...rest].flatMap((p) => p.items)) {
      if (seen.has(invoice.invoice_id)) continue;
      seen.add(invoice.invoice_id);
      const at = invoice.created_at ? Date.parse(invoice.created_at) : NaN;
      const point = points[bucketIndex(slots, at)];
      if (!point) continue;
      point.count += 1;
      // Decimal sums: no rounding per addition, no drift however large the amounts.
      if (isEur(invoice)) point.sumEur = addDecimals(point.sumEur!, invoice.fiat_amount!);
      else notSummed += 1;
    }
    const totalEur = addDecimals(...points.map((p) => p.sumEur!));
    return { kind: "sums", bucket: period.bucket, points, completed, totalEur, notSummed, calls };
  }

  // Too many to sum within the budget: count per bucket instead, one call each, by week beyond a month.
  const size: BucketSize = period.bucket === "day" && period.days > MAX_COUNT_BUCKETS ? "week" : period.bucket;
  const slots = buckets(period.start, period.end, size, period.timeZone);
  const upperMs = Date.parse(upper);
  const counts = await mapLimit(slots, async (b) => {
    if (b.start >= upperMs) return 0;
    const after = new Date(b.start - 1).toISOString();
    const { pagination } = await list({
      ...base,
      status: "completed",
      page_size: 1,
      ...range(after, new Date(Math.min(b.end, upperMs)).toISOString()),
    });
    return pagination.total_records;
  });
  calls += slots.filter((b) => b.start < upperMs).length;
  const points = slots.map((b, i) => ({ label: b.label, start: b.start, count: counts[i], sumEur: null }));
  return { kind: "counts", bucket: size, points, completed, totalEur: null, notSummed: 0, calls };
}

export type Attention = {
  items: Invoice[];
  partlyPaid: number;
  /** Pending ones created before yesterday began (in the zone asked for): at least a day old, whatever the hour. */
  pendingBeforeYesterday: number;
  /** The last day they were created on: what the list they link to runs to. */
  lastDay: string;
};

/**
 * Invoices someone should look at, oldest first, whatever the period: partly paid ones, and pending ones from
 * before yesterday (a payment seen but not confirmed for a day or more is stuck; counted in whole days, the
 * person's, so the list a count links to, To: the day before yesterday, holds exactly the invoices counted).
 */
export async function attentionQueue(
  list: ListInvoices,
  { now = Date.now(), limit = ATTENTION_LIMIT, timeZone = "UTC" } = {},
): Promise<Attention> {
  const oldest = { page: 1, page_size: limit, sort_by: "created_at", sort_order: "asc" } as const;
  const lastDay = addDays(todayIn(timeZone, now), -2);
  const [partial, pending] = await Promise.all([
    list({ ...oldest, status: "paid_partial" }),
    list({ ...oldest, status: "pending", created_before: new Date(startOfDay(addDays(lastDay, 1), timeZone)).toISOString() }),
  ]);
  const time = (i: Invoice) => (i.created_at ? Date.parse(i.created_at) : Number.POSITIVE_INFINITY);
  const items = [...partial.items, ...pending.items].sort((a, b) => time(a) - time(b)).slice(0, limit);
  return { items, partlyPaid: partial.pagination.total_records, pendingBeforeYesterday: pending.pagination.total_records, lastDay };
}

function range(createdAfter: string, createdBefore: string | undefined) {
  return { created_after: createdAfter, ...(createdBefore ? { created_before: createdBefore } : {}) };
}

function isEur(invoice: Invoice): boolean {
  return invoice.fiat_currency.toUpperCase() === "EUR" && invoice.fiat_amount !== null;
}

/** `fn` over `items`, at most CONCURRENCY at a time, results in order. */
async function mapLimit<T, R>(items: T[], fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, worker));
  return results;
}

/**
 * The same two cards from the console's mirror, once it has listed every invoice: the totals the
 * invoice list shows, exact for any period and any number of invoices (no page budget, no provider call).
 */
export type ViewTotals = (view: {
  status?: AnyInvoiceStatus[];
  created_after?: string;
  created_before?: string;
}) => Promise<{ count: number; statuses: Record<string, number>; fiat: Record<string, Decimal>; fiatCounts: Record<string, number> }>;

export async function mirrorStatusCounts(
  totals: ViewTotals,
  period: Pick<ResolvedPeriod, "createdAfter" | "createdBefore">,
): Promise<StatusCount[]> {
  const { statuses } = await totals(range(period.createdAfter, period.createdBefore));
  return ALL_INVOICE_STATUSES.map((status) => ({ status, count: statuses[status] ?? 0 }));
}

export async function mirrorCompletedVolume(
  totals: ViewTotals,
  period: Pick<ResolvedPeriod, "createdAfter" | "createdBefore" | "start" | "end" | "bucket" | "timeZone">,
  { now = Date.now() } = {},
): Promise<Volume> {
  const upperMs = period.createdBefore ? Date.parse(period.createdBefore) : Math.min(now, period.end);
  const slots = buckets(period.start, period.end, period.bucket, period.timeZone);
  const answers = await mapLimit(slots, (b) =>
    b.start >= upperMs
      ? Promise.resolve({ count: 0, fiat: {} as Record<string, Decimal>, fiatCounts: {} as Record<string, number> })
      : totals({
          status: ["completed"],
          created_after: new Date(b.start - 1).toISOString(),
          created_before: new Date(Math.min(b.end, upperMs)).toISOString(),
        }),
  );
  const points = slots.map((b, i) => ({ label: b.label, start: b.start, count: answers[i].count, sumEur: answers[i].fiat.EUR ?? "0" }));
  const completed = answers.reduce((n, a) => n + a.count, 0);
  const notSummed = answers.reduce((n, a) => n + a.count - (a.fiatCounts.EUR ?? 0), 0);
  return {
    kind: "sums",
    bucket: period.bucket,
    points,
    completed,
    totalEur: addDecimals(...points.map((p) => p.sumEur)),
    notSummed,
    calls: 0,
  };
}
