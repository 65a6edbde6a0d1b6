"use client";

import { useSearchParams } from "next/navigation";
import { useMemo } from "react";
import { type InvoiceListState, loadInvoiceListState } from "@/lib/contract/invoice-list-state";

/**
 * The list's state as the URL holds it, for the islands beside the server-rendered list (export, save view).
 * The list changes it through its forms and links, which the server renders; this only reads.
 */
export function useInvoiceListState(): { state: InvoiceListState } {
  const params = useSearchParams();
  const search = params.toString();
  const state = useMemo(() => loadInvoiceListState(new URLSearchParams(search)), [search]);
  return { state };
}
