"use client";

import { useSearchParams } from "next/navigation";
import { useCallback, useMemo } from "react";
import { FILTER_KEYS, loadInvoiceListState, serializeInvoiceListState, type InvoiceListState } from "@/lib/query/invoice-list-state";

type Patch = Partial<{ [K in keyof InvoiceListState]: InvoiceListState[K] | null }>;

/**
 * The table's state, read from and written to the URL. Each change is a history entry, so back and forward
 * step through views; changing a filter, the sort or the page size returns to page 1.
 *
 * Next.js's own APIs, no URL-state library: `useSearchParams` reads, and `history.pushState` writes, which
 * Next.js folds into its router (useSearchParams follows, back and forward restore) without a server
 * round trip or a scroll. Other parameters of the URL stay as they are; a default value leaves the URL.
 */
export function useInvoiceListState() {
  const searchParams = useSearchParams();
  const state = useMemo(() => loadInvoiceListState(searchParams), [searchParams]);

  const setState = useCallback((patch: Patch) => {
    // From the address bar at the time of the change, so two changes in one tick both land.
    window.history.pushState(null, "", serializeInvoiceListState(window.location.pathname + window.location.search, patch));
  }, []);

  const update = useCallback(
    (patch: Patch) => {
      const resetsPage = Object.keys(patch).some((key) => key !== "page");
      setState(resetsPage ? { ...patch, page: null } : patch);
    },
    [setState],
  );

  const resetFilters = useCallback(() => setState({ ...Object.fromEntries(FILTER_KEYS.map((k) => [k, null])), page: null }), [setState]);

  return { state, update, resetFilters };
}
