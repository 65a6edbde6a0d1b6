import "server-only";
import { sql } from "drizzle-orm";
import { createLeasedJob, upstreamFailure } from "@/lib/console/leased-job";
import { searchSync } from "@/lib/console/schema";
import { type InvoiceList, type InvoiceListQuery, PAGE_SIZE_MAX, type SearchIndexState } from "@/lib/contract";
import type { Db } from "@/lib/platform/db";
import { log } from "@/lib/platform/observability/log";
import { counter, gaugeSource } from "@/lib/platform/observability/metrics";
import { createPace } from "./pace";
import { countIndexed, indexInvoices } from "./store";

type Row = typeof searchSync.$inferSelect;

/** Where the first fill reads next: page `page` of the invoices created after `after` (null: all of them). */
type FillCursor = { after: Date | null; page: number };

/**
 * After a batch, the next cursor: the invoices created after the last one read, less a millisecond, from their
 * first page, so no page is ever deep (the provider's cheapest read). Its instant's invoices are read again
 * (`again`, rewritten unchanged). When the cursor cannot move — a batch all within one millisecond, or without
 * creation times — the next pages of the same cursor.
 */
export function nextCursor(cursor: FillCursor, count: number, items: InvoiceList["items"]): { cursor: FillCursor; again: number } {
  const lastAt = items.length ? Date.parse(items[items.length - 1].created_at ?? "") : Number.NaN;
  const after = lastAt - 1;
  // Past the first batch without a cursor, the whole list by page number: a fill begun that way goes on so.
  const byPage = cursor.after === null && cursor.page > 1;
  if (byPage || !Number.isFinite(after) || (cursor.after && after <= cursor.after.getTime())) {
    return { cursor: { after: cursor.after, page: cursor.page + count }, again: 0 };
  }
  const again = items.filter((item) => Date.parse(item.created_at ?? "") > after).length;
  return { cursor: { after: new Date(after), page: 1 }, again };
}

/**
 * Pages the first fill reads at once, started together: the provider answers a batch while the mirror writes the
 * one before (a restart re-reads at most these). Eight, not four: a fill of 200,000 took 57–64 s instead of 67–69.
 */
export const FILL_PAGES_AT_ONCE = 8;

export type SearchSyncOptions = {
  /** The console's database: the index and the sync's state live there, shared by every instance. */
  db: () => Promise<Db>;
  /** GET /invoices through lib/console/upstream: normalised, and a 429 thrown as a Problem with Retry-After. */
  listInvoices: (query: InvoiceListQuery) => Promise<InvoiceList>;
  /** How often an incremental sync runs (SEARCH_SYNC_SECONDS). */
  syncSeconds: number;
  /** The shortest wait between two pages (the ceiling of the pace, ./pace.ts). */
  pageIntervalMs: number;
  /** Pages the first fill reads at once (FILL_PAGES_AT_ONCE). */
  pagesAtOnce?: number;
  /** Whether calls to the provider other than the walk's own `own` are under way: the walk slows down for them. */
  othersBusy?: (own: number) => boolean;
  /** How long one instance may hold the lease per page (a crashed holder's lease expires). */
  leaseMs: number;
  /** How far behind the newest change seen the next incremental walk still reads (changes that raced it). */
  overlapMs?: number;
  /** One run walks at most this long, then lets go of the lease (another instance may take over). */
  runMs?: number;
  id?: string;
  now?: () => Date;
  sleep?: (ms: number) => Promise<void>;
};

export type SyncOutcome = "not_due" | "busy" | "filling" | "filled" | "synced" | "paused";

/**
 * Keeps the search index (./store.ts) in step with the provider, which cannot search.
 *
 * First fill: the whole list, oldest first, 100 a page, a few pages at once at a bounded pace, the next batch read
 * while one is written; each batch starts from the last invoice read (nextCursor), never deep in the list. After
 * each batch the cursor is written with the lease check, so a restart resumes there. Then incremental syncs every
 * `syncSeconds`: `sort_by=updated_at&sort_order=desc` until an item older than the newest change seen
 * before (less an overlap), so inserted, changed and archived invoices all come in, and one that changes
 * while the walk runs is caught by the next walk. One instance at a time walks: a lease on the row in
 * console.search_sync (lib/console/leased-job.ts, as the rates cache). A 429 pauses the sync as Retry-After says; any
 * failure is recorded for admins and retried on the next turn — the fill resumes at its page.
 */
export function createSearchSync(options: SearchSyncOptions) {
  const now = options.now ?? (() => new Date());
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const overlapMs = options.overlapMs ?? 60_000;
  const runMs = options.runMs ?? 30_000;
  const pagesAtOnce = options.pagesAtOnce ?? FILL_PAGES_AT_ONCE;
  const job = createLeasedJob({ table: searchSync, id: options.id ?? "default", leaseMs: options.leaseMs, now });
  let inFlight = 0;
  const pace = createPace({ minIntervalMs: options.pageIntervalMs, othersBusy: () => options.othersBusy?.(inFlight) ?? false });

  const list = async (query: Partial<InvoiceListQuery>) => {
    const started = performance.now();
    inFlight += 1;
    try {
      const answer = await options.listInvoices({ page: 1, page_size: PAGE_SIZE_MAX, ...query } as InvoiceListQuery);
      inFlight -= 1;
      pace.answered(performance.now() - started);
      return answer;
    } catch (error) {
      inFlight -= 1;
      throw error;
    }
  };

  /** Pages `page`… of the invoices created after `after`, oldest first, started together at `startAt`; never rejects. */
  const readBatch = (cursor: FillCursor, count: number, startAt: number) =>
    sleep(Math.max(0, startAt - Date.now())).then(() =>
      Promise.allSettled(
        Array.from({ length: count }, (_, i) =>
          list({
            page: cursor.page + i,
            sort_by: "created_at",
            sort_order: "asc",
            ...(cursor.after ? { created_after: cursor.after.toISOString() } : {}),
          }),
        ),
      ),
    );

  async function fill(db: Db, row: Row): Promise<SyncOutcome> {
    const until = Date.now() + runMs;
    let cursor: FillCursor = { after: row.fillAfter, page: row.fillPage ?? 1 };
    let read = row.fillRead;
    let total = row.fillTotalRecords ?? 0;
    if (!row.fillStartedAt) {
      // Where the first incremental walk may stop, on the provider's own clock: its newest change before the
      // fill began. Everything changed during the fill is newer, whichever page it was on.
      const newest = await list({ page: 1, sort_by: "updated_at", sort_order: "desc" }).catch(async (error) => {
        await job.advance(db, {}, 1);
        throw error;
      });
      await indexInvoices(db, newest.items);
      const highWater = newest.items[0]?.updated_at ? new Date(newest.items[0].updated_at) : null;
      total = newest.pagination.total_records;
      if (!(await job.advance(db, { fillStartedAt: now(), highWater, fillTotalRecords: total }))) return "busy";
    }
    // Several pages at once, so the provider's answers overlap; never more than the invoices still to read (a list
    // that grew meanwhile says so with has_next).
    const batchSize = () => Math.max(1, Math.min(pagesAtOnce, pace.perSecond, Math.ceil((total - read) / PAGE_SIZE_MAX)));
    let count = batchSize();
    // A batch starts a batch's worth of intervals after the one before (the pace on average), and never so soon
    // that a second holds more starts than the ceiling.
    let batchStarted = pace.startAt(count, Date.now());
    let batch = readBatch(cursor, count, batchStarted);
    for (;;) {
      // Every call of a batch ends before the turn does: none is left running after a pause or a stop.
      const settled = await batch;
      const refusal = settled.find((result) => result.status === "rejected");
      if (refusal) {
        await job.advance(db, {}, count);
        throw refusal.reason;
      }
      const answers = settled.map((result) => (result as PromiseFulfilledResult<InvoiceList>).value);
      const last = answers.findIndex((answer) => !answer.pagination.has_next || answer.items.length === 0);
      const pages = last === -1 ? answers : answers.slice(0, last + 1);
      const items = pages.flatMap((answer) => answer.items);
      const done = last !== -1;
      // A provider that answered invoices created before `created_after` does not filter by it: the rest of the
      // list is read by page number, from the page the invoices read so far reach.
      const unfiltered = cursor.after !== null && items.length > 0 && !(Date.parse(items[0].created_at ?? "") > cursor.after.getTime());
      let next: ReturnType<typeof nextCursor>;
      if (unfiltered) {
        next = { cursor: { after: null, page: Math.max(2, Math.floor(read / PAGE_SIZE_MAX) + 1) }, again: 0 };
        read = (next.cursor.page - 1) * PAGE_SIZE_MAX;
      } else {
        next = nextCursor(cursor, count, items);
        read += items.length - (done ? 0 : next.again);
      }
      const calls = count;
      // The next batch is read while this one is written, unless the turn ends here.
      const goOn = !done && Date.now() < until;
      if (goOn) {
        const earliest = batchStarted + count * pace.intervalMs();
        count = batchSize();
        batchStarted = pace.startAt(count, earliest);
        batch = readBatch(next.cursor, count, batchStarted);
      }
      await indexInvoices(db, items).catch(async (error) => {
        if (goOn) await batch;
        throw error;
      });
      if (done) {
        // What changed during the fill comes with the first incremental walk, at once.
        await job.advance(db, { fillPage: null, fillAfter: null, fillRead: read, fillCompletedAt: now(), fillTotalRecords: read }, calls);
        await job.release(db, { nextTryAt: now(), pausedReason: null, pausedDetail: null });
        await tidy(db);
        return "filled";
      }
      cursor = next.cursor;
      const held = await job.advance(
        db,
        { fillPage: cursor.page, fillAfter: cursor.after, fillRead: read, pausedReason: null, pausedDetail: null },
        calls,
      );
      if (!held || !goOn) {
        if (goOn) await batch;
        if (!held) return "busy";
        await job.release(db, { nextTryAt: new Date(now().getTime() + pace.intervalMs()) });
        return "filling";
      }
    }
  }

  /**
   * Marks the filled mirror's pages visible and gives the planner its statistics, so the views' walks stay in the
   * indexes (PGlite never vacuums on its own). A failure costs speed, not rows: logged, not thrown.
   */
  async function tidy(db: Db): Promise<void> {
    await db.execute(sql`vacuum (analyze) console.search_invoices, console.mirror_totals`).catch((error: unknown) => {
      log.warn({ err: error }, "search sync: vacuuming the filled mirror failed");
    });
  }

  async function incremental(db: Db, row: Row): Promise<SyncOutcome> {
    const walkStartedAt = now();
    const walkTimer = performance.now();
    const stopAt = row.highWater ? row.highWater.getTime() - overlapMs : -Infinity;
    let newest = row.highWater?.getTime() ?? -Infinity;
    let page = 1;
    for (; ; page += 1) {
      let answer: InvoiceList;
      try {
        answer = await list({ page, sort_by: "updated_at", sort_order: "desc" });
      } catch (error) {
        await job.advance(db, {}, 1);
        throw error;
      }
      await indexInvoices(db, answer.items);
      const times = answer.items.map((i) => (i.updated_at ? Date.parse(i.updated_at) : -Infinity));
      newest = Math.max(newest, ...times);
      const reachedSeen = times.length > 0 && times[times.length - 1] < stopAt;
      const done = reachedSeen || !answer.pagination.has_next || answer.items.length === 0;
      if (!(await job.advance(db, {}))) return "busy";
      if (done) {
        await job.release(db, {
          highWater: Number.isFinite(newest) ? new Date(newest) : row.highWater,
          freshAsOf: walkStartedAt,
          lastWalkMs: Math.round(performance.now() - walkTimer),
          lastWalkCalls: page,
          nextTryAt: new Date(now().getTime() + options.syncSeconds * 1000),
          pausedReason: null,
          pausedDetail: null,
        });
        return "synced";
      }
      await sleep(pace.intervalMs());
    }
  }

  async function pause(db: Db, error: unknown): Promise<SyncOutcome> {
    const failure = upstreamFailure(error, "search sync: a walk failed");
    syncErrors().inc({ reason: failure.reason });
    pace.refused();
    // Any other failure (provider down, a restart of our own embedded sandbox) is tried again soon.
    const waitSeconds = failure.retryAfterSeconds === null ? Math.min(options.syncSeconds, 15) : Math.max(1, failure.retryAfterSeconds);
    await job.release(db, {
      nextTryAt: new Date(now().getTime() + waitSeconds * 1000),
      pausedReason: failure.reason,
      pausedDetail: failure.detail ?? "The invoicing API could not be read.",
    });
    return "paused";
  }

  /** One turn: if the sync is due and no other instance walks, fill on or walk the recent changes. */
  async function runOnce(): Promise<SyncOutcome> {
    const db = await options.db();
    const row = await job.read(db);
    const at = now();
    if (row.nextTryAt.getTime() > at.getTime()) return "not_due";
    const leased = await job.take(db, at);
    if (!leased) return "busy";
    try {
      return leased.fillPage !== null ? await fill(db, leased) : await incremental(db, leased);
    } catch (error) {
      return pause(db, error);
    }
  }

  async function state(withCount = false): Promise<SearchIndexState> {
    const db = await options.db();
    const row = await job.read(db);
    const at = now().getTime();
    return {
      state: row.fillPage === null ? "ready" : "filling",
      indexed: withCount ? await countIndexed(db) : null,
      fill_total: row.fillTotalRecords,
      fill_page: row.fillPage,
      fill_read: row.fillRead,
      fill_started_at: row.fillStartedAt?.toISOString() ?? null,
      fill_completed_at: row.fillCompletedAt?.toISOString() ?? null,
      fresh_as_of: row.freshAsOf?.toISOString() ?? null,
      age_seconds: row.freshAsOf ? Math.max(0, Math.floor((at - row.freshAsOf.getTime()) / 1000)) : null,
      paused_reason: row.pausedReason,
      paused_detail: row.pausedDetail,
      next_try_at: row.nextTryAt.toISOString(),
      upstream_calls: row.upstreamCalls,
      last_walk_ms: row.lastWalkMs,
      last_walk_calls: row.lastWalkCalls,
    };
  }

  gaugeSource(
    "invoice_console_search_mirror_age_seconds",
    "Seconds since the search mirror's last completed sync began (how far behind the provider it may be); NaN before the first.",
    [],
    async (gauge) => {
      const { age_seconds } = await state();
      if (age_seconds !== null) gauge.set(age_seconds);
    },
  );

  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = true;
  /** The turn under way, if any: stop() waits for it before it lets go of the lease. */
  let running: Promise<void> | undefined;

  /** Runs turns in this process until stop(): at once while filling, else when the row says it is due. */
  function start(firstDelayMs = 0): void {
    if (!stopped) return;
    stopped = false;
    const turn = () => {
      running = runTurn().finally(() => (running = undefined));
    };
    const runTurn = async () => {
      let delay = options.syncSeconds * 1000;
      try {
        const outcome = await runOnce();
        const row = await job.read(await options.db());
        delay =
          outcome === "filling" || outcome === "filled"
            ? pace.intervalMs()
            : Math.max(pace.intervalMs(), row.nextTryAt.getTime() - now().getTime());
        // Someone else holds the lease: look again when it would have expired.
        if (outcome === "busy") delay = Math.max(delay, Math.min(options.leaseMs, options.syncSeconds * 1000));
      } catch (error) {
        syncErrors().inc({ reason: "turn_failed" });
        log.error({ err: error }, "search sync: a turn failed");
      }
      if (!stopped) timer = setTimeout(turn, Math.min(delay, options.syncSeconds * 1000)).unref();
    };
    timer = setTimeout(turn, firstDelayMs).unref();
  }

  /**
   * Runs no more turns; the one under way ends first, then this instance lets go of the lease, so another one
   * syncs at once instead of after the lease runs out (graceful shutdown, lib/console/startup.ts).
   */
  async function stop(): Promise<void> {
    stopped = true;
    clearTimeout(timer);
    await running;
    await job.release(await options.db(), {});
  }

  return { runOnce, state, start, stop, holder: job.holder };
}

export type SearchSync = ReturnType<typeof createSearchSync>;

const syncErrors = () =>
  counter(
    "invoice_console_search_sync_errors_total",
    "Search mirror syncs that failed, by reason (rate_limited, upstream_error, turn_failed); retried on the next turn.",
    ["reason"],
  );
