import { queryOptions } from "@tanstack/react-query";
import { fetchJson } from "./fetch-json";

// The invoice list is rendered on the server: the browser caches only currencies and bulk jobs.
export const currencyKeys = { all: ["currencies"] as const };

export function currencyListOptions() {
  return queryOptions({
    queryKey: currencyKeys.all,
    queryFn: ({ signal }) => fetchJson("/api/currencies", (c) => c.currencyListSchema, { signal }),
    staleTime: 60 * 60_000,
  });
}

export const bulkKeys = { all: ["bulk-jobs"] as const, job: (id: string) => ["bulk-jobs", id] as const };

/** A bulk cancel, followed every second until every invoice has its outcome. */
export function bulkJobOptions(id: string) {
  return queryOptions({
    queryKey: bulkKeys.job(id),
    queryFn: ({ signal }) => fetchJson(`/api/invoices/bulk/${encodeURIComponent(id)}`, (c) => c.bulkJobSchema, { signal }),
    refetchInterval: (query) => (query.state.data?.finished_at ? false : 1_000),
  });
}

/** The person's latest bulk cancels (one still running is shown again after the page was left or closed). */
export function bulkJobListOptions() {
  return queryOptions({
    queryKey: bulkKeys.all,
    queryFn: ({ signal }) => fetchJson("/api/invoices/bulk", (c) => c.bulkJobListSchema, { signal }),
  });
}
