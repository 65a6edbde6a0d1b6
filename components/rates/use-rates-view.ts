"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { ratesOptions } from "@/lib/browser/query/rates";
import type { RatesView } from "@/lib/contract";
import { Problem } from "@/lib/contract/problem";

/** Re-renders every `ms` so ages and countdowns tick; the time is the browser's, read only after mount. */
export function useNow(ms = 1_000): number | null {
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(timer);
  }, [ms]);
  return now;
}

export type RatesState = {
  view: RatesView | undefined;
  problem: Problem | null;
  /** Seconds since the shown rates were fetched, ticking. */
  ageSeconds: number | null;
  /** Seconds until the console asks the provider again (stale or no rates), ticking. */
  retryInSeconds: number | null;
  loading: boolean;
  fetching: boolean;
  refresh: () => void;
};

/**
 * The console's cached rates for any component: one shared query (the panel, the shell's strip, the invoice
 * page and the archive form's preview all read the same cache entry), refetched when the cache says.
 *
 * The server never has rates (none are fetched for a page), while the browser's cache may already hold them
 * when a part of the page hydrates: the shell's strip asks for them at once, and the page's own part (the
 * invoice's "worth today") hydrates after it. So until mounted, every user of this hook draws what the server
 * drew — rates on their way — and the browser's cache counts from the render after (React #418).
 */
export function useRatesView(): RatesState {
  const query = useQuery(ratesOptions());
  const now = useNow();
  if (now === null)
    return {
      view: undefined,
      problem: null,
      ageSeconds: null,
      retryInSeconds: null,
      loading: true,
      fetching: true,
      refresh: () => void query.refetch(),
    };
  const elapsed = Math.max(0, (now - (query.data ? query.dataUpdatedAt : query.errorUpdatedAt)) / 1000);
  const problem =
    query.error instanceof Problem
      ? query.error
      : query.error
        ? new Problem({ status: 0, code: "error", title: "Rates could not be loaded" })
        : null;
  const view = query.data;
  const errorRetry = problem?.headers["retry-after"] ? Number(problem.headers["retry-after"]) : null;
  const baseRetry = view?.stale && !problem ? view.retry_in_seconds : errorRetry;
  return {
    view,
    problem,
    ageSeconds: view ? Math.floor(view.age_seconds + Math.max(0, (now - query.dataUpdatedAt) / 1000)) : null,
    retryInSeconds: baseRetry === null ? null : Math.max(0, Math.ceil(baseRetry - elapsed)),
    loading: query.isPending,
    fetching: query.isFetching,
    refresh: () => void query.refetch(),
  };
}
