import "server-only";
import { openByIdTarget } from "@/lib/contract/open-by-id";
import type { Db } from "@/lib/platform/db";
import { searchIndex } from "./store";

/**
 * The invoice a field that names one means (the deliveries view's Invoice, the activity log's target): what was
 * typed, unless the console's index knows one invoice by it (an order id, or an invoice id's tail as the tables
 * show it), the way "Open by invoice or order id" finds one. The provider and the audit log know whole ids only.
 */
export async function wholeInvoiceId(db: Db, typed: string): Promise<string> {
  const target = openByIdTarget(typed, await searchIndex(db, typed).catch(() => []));
  return target.kind === "invoice" ? target.id : typed;
}
