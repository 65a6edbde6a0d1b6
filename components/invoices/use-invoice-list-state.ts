"use client";

import { useSearchParams } from "next/navigation";
import { useCallback, useEffect, useMemo, useRef, useSyncExternalStore } from "react";
import { FILTER_KEYS, loadInvoiceListState, serializeInvoiceListState, type InvoiceListState } from "@/lib/query/invoice-list-state";

type Patch = Partial<{ [K in keyof InvoiceListState]: InvoiceListState[K] | null }>;

// Next.js brings a pushed URL to useSearchParams in a transition, a moment later. Until then every user of
// the state (toolbar, table, export) reads the query string just written, so a controlled select changed
// three times by the arrow keys moves three steps instead of snapping back between them.
let written: string | null = null;
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());
function forgetWritten() {
  written = null;
  notify();
}
function subscribe(listener: () => void) {
  listeners.add(listener);
  // Back and forward: the history entry's URL is the state, whatever was written before.
  window.addEventListener("popstate", forgetWritten);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("popstate", forgetWritten);
    // The list left the screen: the next one starts from its URL.
    if (listeners.size === 0) written = null;
  };
}

/**
 * The table's state, read from and written to the URL. Each change is a history entry, so back and forward
 * step through views; changing a filter, the sort or the page size returns to page 1.
 *
 * Next.js's own APIs, no URL-state library: `useSearchParams` reads, and `history.pushState` writes, which
 * Next.js folds into its router (useSearchParams follows, back and forward restore) without a server round
 * trip or a scroll. Other parameters of the URL stay as they are; a default value leaves the URL.
 */
export function useInvoiceListState() {
  const current = useSearchParams().toString();
  const pending = useSyncExternalStore(subscribe, () => written, () => null);
  const search = pending ?? current;
  const router = useRef(current);
  router.current = current;
  const state = useMemo(() => loadInvoiceListState(new URLSearchParams(search)), [search]);

  // The router has caught up with what was written: its URL is the state again.
  useEffect(() => {
    if (written !== null && written === current) forgetWritten();
  }, [current]);

  const setState = useCallback((patch: Patch) => {
    // From the address bar at the time of the change, so two changes in one tick both land.
    const url = serializeInvoiceListState(window.location.pathname + window.location.search, patch);
    window.history.pushState(null, "", url);
    const now = new URLSearchParams(window.location.search).toString();
    // Nothing to wait for when the URL did not change (the same option chosen again).
    written = now === router.current ? null : now;
    notify();
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
