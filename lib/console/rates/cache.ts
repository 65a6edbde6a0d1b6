import "server-only";
import { sql } from "drizzle-orm";
import { createLeasedJob, type LeasedUpdate, upstreamFailure } from "@/lib/console/leased-job";
import { ratesCache } from "@/lib/console/schema";
import { type Decimal, type Rates, type RatesView, toDecimal } from "@/lib/contract";
import { Problem } from "@/lib/contract/problem";
import type { Db } from "@/lib/platform/db";
import { gaugeSource } from "@/lib/platform/observability/metrics";

type Row = typeof ratesCache.$inferSelect;

export type RatesCacheOptions = {
  /** The console's database: the cache row lives there, shared by every instance on it. */
  db: () => Promise<Db>;
  /** One upstream call: the rates, or a thrown Problem (429 with Retry-After, 502, 504…). */
  fetchRates: () => Promise<Rates>;
  ttlSeconds: number;
  /** How long one instance may hold the lease while it asks upstream (a crashed holder's lease expires). */
  leaseMs: number;
  /** The cache row's id: one per upstream; tests use their own. */
  id?: string;
  now?: () => Date;
  /** How often a caller with nothing to show looks for the lease holder's result. */
  pollMs?: number;
};

/**
 * The console's rates cache. The row in console.rates_cache is the truth every instance shares:
 * the last good rates, when they were fetched, and `next_try_at`, before which nobody asks upstream. A
 * caller reads the row; when it is due, it tries to take the lease (lib/console/leased-job.ts), and only
 * the instance that gets it calls upstream — so across all instances at most one call is in flight and at
 * most one is made per TTL. Everyone else answers the last good rates at once, or, when there are none yet,
 * waits (bounded by the lease) for the holder's result. Within one process concurrent callers share one
 * promise, so a hundred open panels cost one database read.
 *
 * A failure keeps the last good rates and marks them stale with the reason; after a 429 the next attempt
 * waits for the provider's Retry-After (and at least the TTL). With no good rates at all the answer is a
 * 503 problem with Retry-After.
 */
export function createRatesCache(options: RatesCacheOptions) {
  const now = options.now ?? (() => new Date());
  const pollMs = options.pollMs ?? 100;
  const job = createLeasedJob({ table: ratesCache, id: options.id ?? "default", leaseMs: options.leaseMs, now });
  let inflight: Promise<RatesView> | null = null;
  gaugeSource(
    "invoice_console_rates_cache_age_seconds",
    "Seconds since the rates the console serves were fetched from the provider (all instances share them); NaN before the first.",
    [],
    async (gauge) => {
      const row = await job.read(await options.db());
      if (row.fetchedAt) gauge.set(Math.max(0, (now().getTime() - row.fetchedAt.getTime()) / 1000));
    },
  );

  /** Asks upstream (we hold the lease) and records the outcome, releasing the lease in the same UPDATE. */
  async function refresh(db: Db): Promise<Row> {
    let update: LeasedUpdate<typeof ratesCache>;
    try {
      const { rates } = await options.fetchRates();
      const at = now();
      update = {
        // "Change since the previous value" compares with the last different rates, not a repeat of them.
        previousRates: sql`case when ${ratesCache.rates} is distinct from ${JSON.stringify(rates)}::jsonb then ${ratesCache.rates} else ${ratesCache.previousRates} end`,
        previousFetchedAt: sql`case when ${ratesCache.rates} is distinct from ${JSON.stringify(rates)}::jsonb then ${ratesCache.fetchedAt} else ${ratesCache.previousFetchedAt} end`,
        rates,
        fetchedAt: at,
        nextTryAt: new Date(at.getTime() + options.ttlSeconds * 1000),
        staleReason: null,
        staleDetail: null,
      };
    } catch (error) {
      const failure = upstreamFailure(error, "rates: upstream call failed");
      update = {
        nextTryAt: new Date(now().getTime() + Math.max(options.ttlSeconds, failure.retryAfterSeconds ?? 0) * 1000),
        staleReason: failure.reason,
        staleDetail: failure.detail ?? "The invoicing API could not be asked.",
      };
    }
    // Our lease expired and another instance took over meanwhile: its row is the truth.
    return (await job.release(db, update, 1)) ?? job.read(db);
  }

  async function resolve(): Promise<RatesView> {
    const db = await options.db();
    let row = await job.read(db);
    const at = now();
    if (row.nextTryAt.getTime() <= at.getTime()) {
      const leased = await job.take(db, at);
      if (leased) row = await refresh(db);
      else if (!row.rates) row = await awaitHolder(db);
    }
    return view(row);
  }

  /** Nothing to show and another instance is asking: wait for its result, no longer than its lease. */
  async function awaitHolder(db: Db): Promise<Row> {
    const deadline = Date.now() + options.leaseMs;
    let row = await job.read(db);
    while (!row.rates && row.leaseHolder && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, pollMs));
      row = await job.read(db);
    }
    return row;
  }

  function view(row: Row): RatesView {
    const at = now().getTime();
    const retryIn = Math.max(0, Math.ceil((row.nextTryAt.getTime() - at) / 1000));
    if (!row.rates || !row.fetchedAt) {
      throw new Problem({
        status: 503,
        code: "rates_unavailable",
        title: "No rates yet",
        detail: `${row.staleDetail ?? "The invoicing API has not answered with rates yet."} The console will ask again in ${Math.max(1, retryIn)} s.`,
        headers: { "retry-after": String(Math.max(1, retryIn)) },
      });
    }
    return {
      rates: decimals(row.rates),
      previous_rates: row.previousRates ? decimals(row.previousRates) : null,
      fetched_at: row.fetchedAt.toISOString(),
      previous_fetched_at: row.previousFetchedAt?.toISOString() ?? null,
      age_seconds: Math.max(0, Math.floor((at - row.fetchedAt.getTime()) / 1000)),
      stale: row.staleReason !== null,
      stale_reason: (row.staleReason as RatesView["stale_reason"]) ?? null,
      stale_detail: row.staleDetail ?? null,
      next_try_at: row.nextTryAt.toISOString(),
      retry_in_seconds: retryIn,
    };
  }

  return {
    /** The current rates view; concurrent callers in this process share one resolution. */
    get(): Promise<RatesView> {
      inflight ??= resolve().finally(() => {
        inflight = null;
      });
      return inflight;
    },
    /** How many upstream calls this cache row has recorded, over all instances (benchmark, tests). */
    async upstreamCalls(): Promise<number> {
      return (await job.read(await options.db())).upstreamCalls;
    },
  };
}

export type RatesCache = ReturnType<typeof createRatesCache>;

/** Rates as decimal strings, whether the row was written with strings or (before they were kept as strings) with numbers. */
function decimals(rates: Record<string, string | number>): Record<string, Decimal> {
  return Object.fromEntries(
    Object.entries(rates).flatMap(([code, rate]) => {
      const decimal = toDecimal(rate);
      return decimal === null ? [] : [[code, decimal]];
    }),
  );
}
