import { isZero } from "./money";
import type { Invoice } from "./schemas";

/** Whether crypto has reached the invoice on chain: its payment says so, or its status is partly paid. */
export function hasReceivedCrypto(invoice: Pick<Invoice, "status" | "payment">): boolean {
  if (invoice.status === "paid_partial") return true;
  const received = invoice.payment?.amount_received;
  if (received != null && !isZero(received)) return true;
  return (invoice.payment?.transactions ?? []).some((tx) => tx.amount != null && !isZero(tx.amount));
}
