import type { SearchResult } from "./search";

// Without zod: the invoice list's toolbar carries it in its first load.

/** Where "Open by invoice or order id" goes: one invoice's page, or the list filtered by what was typed. */
export type OpenByIdTarget = { kind: "invoice"; id: string } | { kind: "list"; q: string };

/**
 * "Open by invoice or order id" from the index's answer for what was typed: the one invoice whose
 * order id or invoice id (exact or its tail) it is; the list filtered by it when several are (an order id used
 * twice); and, when the index knows none (not synced yet, or not a provider that lists it), the typed text as
 * an invoice id, since the provider may still know it and the invoice page says so if not.
 */
export function openByIdTarget(typed: string, results: readonly SearchResult[]): OpenByIdTarget {
  const text = typed.trim();
  const byOrder = results.filter((r) => r.match === "order_id");
  const byId = results.filter((r) => r.match === "invoice_id");
  const candidates = [...byOrder, ...byId];
  if (candidates.length === 0) return { kind: "invoice", id: text };
  if (candidates.length === 1) return { kind: "invoice", id: candidates[0].invoice_id };
  // An invoice id typed in full names one invoice, whatever else shares its tail or uses it as an order id.
  const exact = byId.find((r) => r.invoice_id.toLowerCase() === text.toLowerCase());
  if (exact) return { kind: "invoice", id: exact.invoice_id };
  return { kind: "list", q: byOrder[0]?.order_id ?? text };
}
