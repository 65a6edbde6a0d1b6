"use client";

import { useQueryStates } from "nuqs";
import { useCallback } from "react";
import { FILTER_KEYS, type InvoiceListState, invoiceListParsers } from "@/lib/contract/invoice-list-state";

type Patch = Partial<{ [K in keyof InvoiceListState]: InvoiceListState[K] | null }>;

/**
 * The table's state, read from and written to the URL. Each change is a history entry, so back and forward
 * step through views; changing a filter, the sort or the page size returns to page 1.
 */
export function useInvoiceListState() {
  const [state, setState] = useQueryStates(invoiceListParsers, { history: "push", scroll: false });

  const update = useCallback(
    (patch: Patch) => {
      const resetsPage = Object.keys(patch).some((key) => key !== "page");
      return setState(resetsPage ? { ...patch, page: null } : patch);
    },
    [setState],
  );

  const resetFilters = useCallback(() => setState({ ...Object.fromEntries(FILTER_KEYS.map((k) => [k, null])), page: null }), [setState]);

  return { state, update, resetFilters };
}
