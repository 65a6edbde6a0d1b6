import { queryOptions } from "@tanstack/react-query";
import type { HistoricalRates, RatesView } from "@/lib/contract";
import { Problem } from "@/lib/contract/problem";
import { fetchJson } from "./fetch-json";

export const rateKeys = { all: ["rates"] as const };

/** Never ask the console more often than this, whatever the cache says. */
const MIN_REFETCH_MS = 5_000;

/**
 * The console's cached rates (GET /api/rates). A 503 (no rates yet) keeps its Retry-After on the problem, so
 * the next try waits for it. Auto-refresh follows the cache: at its next_try_at, never sooner than 5 s.
 */
export function ratesOptions() {
  return queryOptions({
    queryKey: rateKeys.all,
    queryFn: ({ signal }): Promise<RatesView> => fetchJson("/api/rates", (c) => c.ratesViewSchema, { signal }),
    retry: false,
    refetchOnWindowFocus: false,
    refetchInterval: (query) => nextRefetchMs(query.state.data, query.state.error),
  });
}

export function nextRefetchMs(data: RatesView | undefined, error: unknown): number {
  if (error instanceof Problem && error.headers["retry-after"])
    return Math.max(MIN_REFETCH_MS, Number(error.headers["retry-after"]) * 1000 + 500);
  if (!data) return 15_000;
  return Math.max(MIN_REFETCH_MS, data.retry_in_seconds * 1000 + 500);
}

/**
 * The rates of one UTC minute (GET /api/rates/history?at=…, README "Rates in the console"). A minute the
 * provider priced never changes, so its answer is kept for the session; an answer without `at` (a provider
 * that ignores the question: its current rates) goes stale like the current rates do.
 */
export function historicalRatesOptions(minute: string) {
  return queryOptions({
    queryKey: [...rateKeys.all, "history", minute] as const,
    queryFn: ({ signal }): Promise<HistoricalRates> =>
      fetchJson(`/api/rates/history?at=${encodeURIComponent(minute)}`, (c) => c.historicalRatesSchema, { signal }),
    retry: false,
    refetchOnWindowFocus: false,
    staleTime: (query) => (query.state.data?.at ? Infinity : 15_000),
    gcTime: 30 * 60_000,
  });
}
