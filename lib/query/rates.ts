import { queryOptions } from "@tanstack/react-query";
import type { RatesView } from "@/lib/invoicing";
import { Problem } from "@/lib/problem";
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
  if (error instanceof Problem && error.headers["retry-after"]) return Math.max(MIN_REFETCH_MS, Number(error.headers["retry-after"]) * 1000 + 500);
  if (!data) return 15_000;
  return Math.max(MIN_REFETCH_MS, data.retry_in_seconds * 1000 + 500);
}
