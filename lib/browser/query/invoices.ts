import { queryOptions } from "@tanstack/react-query";
import type { InvoiceViewQuery } from "@/lib/contract/invoice-view";
import { invoiceListQueryToSearchParams } from "@/lib/contract/list-query";
import { fetchJson } from "./fetch-json";

export const invoiceKeys = {
  all: ["invoices"] as const,
  lists: () => [...invoiceKeys.all, "list"] as const,
  list: (query: InvoiceViewQuery) => [...invoiceKeys.lists(), query] as const,
  summaries: () => [...invoiceKeys.all, "summary"] as const,
  summary: (view: ViewFilter) => [...invoiceKeys.summaries(), view] as const,
};

/** How often a view answered from a mirror still filling asks again. */
const FILLING_REFRESH_MS = 3_000;

export const currencyKeys = { all: ["currencies"] as const };

/** The list query as the browser runs it, through the console's own API. The server page prefetches the same key. */
export function invoiceListOptions(query: InvoiceViewQuery) {
  return queryOptions({
    queryKey: invoiceKeys.list(query),
    queryFn: ({ signal }) =>
      fetchJson(`/api/invoices?${invoiceListQueryToSearchParams(query)}`, (c) => c.invoiceViewListSchema, { signal }),
  });
}

/** A view without its page and sort: what its totals depend on. */
export type ViewFilter = Omit<InvoiceViewQuery, "page" | "page_size" | "sort_by" | "sort_order">;

export function viewFilter({ page: _p, page_size: _s, sort_by: _b, sort_order: _o, ...filter }: InvoiceViewQuery): ViewFilter {
  return filter;
}

/** GET /api/invoices/summary: the view's count and sums, from the mirror; refreshed as the mirror syncs. */
export function invoiceSummaryOptions(view: ViewFilter) {
  return queryOptions({
    queryKey: invoiceKeys.summary(view),
    queryFn: ({ signal }) =>
      fetchJson(`/api/invoices/summary?${invoiceListQueryToSearchParams(view)}`, (c) => c.invoiceSummarySchema, { signal }),
    refetchInterval: (q) => (q.state.data?.state === "filling" ? FILLING_REFRESH_MS : 30_000),
  });
}

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
