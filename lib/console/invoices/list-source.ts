import "server-only";
import { searchSync } from "@/lib/console/mirror";
import { mirrorList, mirrorSummary } from "@/lib/console/mirror/list";
import { upstream } from "@/lib/console/upstream/client";
import { fillProgress } from "@/lib/contract/fill-progress";
import type { InvoiceSummary, InvoiceViewList, InvoiceViewQuery, MirrorState } from "@/lib/contract/invoice-view";
import { providerQuery } from "@/lib/contract/invoice-view";
import { getDatabase } from "@/lib/platform/db";

/*
 * The invoice list's views (ARCHITECTURE.md §4): a view the provider can answer (one status or none,
 * no text) is read live from the provider, as always; any other from the console's mirror of the provider's
 * invoices, with how fresh it is. Totals always come from the mirror: no provider sums.
 */

/** How complete and fresh the mirror is: every change before `as_of` is in it. */
export async function mirrorState(): Promise<MirrorState> {
  const state = await searchSync().state();
  return { state: state.state, as_of: state.fresh_as_of, progress: fillProgress(state) };
}

/** GET /api/invoices: one page of a view. */
export async function listView(view: InvoiceViewQuery): Promise<InvoiceViewList> {
  const query = providerQuery(view);
  if (query) return upstream().listInvoices(query);
  const [list, mirror] = await Promise.all([getDatabase().then((db) => mirrorList(db, view)), mirrorState()]);
  return { ...list, mirror };
}

/** GET /api/invoices/summary: how many invoices a view holds and their sums, exact, with the mirror's freshness. */
export async function summarizeView(view: InvoiceViewQuery): Promise<InvoiceSummary> {
  const [{ fiatCounts: _byFiat, ...totals }, mirror] = await Promise.all([
    getDatabase().then((db) => mirrorSummary(db, view)),
    mirrorState(),
  ]);
  return { ...totals, as_of: mirror.as_of, state: mirror.state, progress: mirror.progress };
}
