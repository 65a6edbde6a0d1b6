import "server-only";
import type { InvoiceViewList, InvoiceViewQuery } from "@/lib/contract/invoice-view";
import { type ReceivedSummary, receivedSummary } from "@/lib/contract/received";
import { viewInvoices } from "./bulk-cancel";

/**
 * What the invoices of a whole view have received, for the confirmation of cancelling them all: the rows are not
 * loaded in the page, so the view is walked as the cancel itself walks it (and refused beyond the same limit).
 */
export async function previewBulkCancel(
  listView: (view: InvoiceViewQuery) => Promise<InvoiceViewList>,
  view: InvoiceViewQuery,
): Promise<ReceivedSummary> {
  return receivedSummary(await viewInvoices(listView, view));
}
