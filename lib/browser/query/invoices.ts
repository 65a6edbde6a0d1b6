import { queryOptions } from "@tanstack/react-query";
import type { InvoiceListQuery } from "@/lib/contract";
import { invoiceListQueryToSearchParams } from "@/lib/contract/list-query";
import { fetchJson } from "./fetch-json";

export const invoiceKeys = {
  all: ["invoices"] as const,
  lists: () => [...invoiceKeys.all, "list"] as const,
  list: (query: InvoiceListQuery) => [...invoiceKeys.lists(), query] as const,
};

export const currencyKeys = { all: ["currencies"] as const };

/** The list query as the browser runs it, through the console's own API. The server page prefetches the same key. */
export function invoiceListOptions(query: InvoiceListQuery) {
  return queryOptions({
    queryKey: invoiceKeys.list(query),
    queryFn: ({ signal }) => fetchJson(`/api/invoices?${invoiceListQueryToSearchParams(query)}`, (c) => c.invoiceListSchema, { signal }),
  });
}

export function currencyListOptions() {
  return queryOptions({
    queryKey: currencyKeys.all,
    queryFn: ({ signal }) => fetchJson("/api/currencies", (c) => c.currencyListSchema, { signal }),
    staleTime: 60 * 60_000,
  });
}
