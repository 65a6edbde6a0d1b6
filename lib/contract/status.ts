/** The six statuses of the spec: the list filter and PATCH accept these. */
export const INVOICE_STATUSES = ["new", "pending", "completed", "expired", "cancelled", "paid_partial"] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

/** Every status an invoice can have: the six plus `archived`, which only POST /archived creates (ARCHITECTURE.md §3). */
export const ALL_INVOICE_STATUSES = [...INVOICE_STATUSES, "archived"] as const;
export type AnyInvoiceStatus = (typeof ALL_INVOICE_STATUSES)[number];

export const STATUS_LABELS: Record<AnyInvoiceStatus, string> = {
  new: "New",
  pending: "Pending",
  completed: "Completed",
  expired: "Expired",
  cancelled: "Cancelled",
  paid_partial: "Partly paid",
  archived: "Archived",
};

export const STATUS_DESCRIPTIONS: Record<AnyInvoiceStatus, string> = {
  new: "Issued; no payment seen yet.",
  pending: "A payment was seen and is waiting for confirmations.",
  completed: "Paid in full and confirmed.",
  expired: "The payment window closed without full payment.",
  cancelled: "Voided; no payment is expected.",
  paid_partial: "Less than the amount due was received.",
  archived: "A historical record entered by hand.",
};

export function isKnownStatus(value: string): value is AnyInvoiceStatus {
  return (ALL_INVOICE_STATUSES as readonly string[]).includes(value);
}

/**
 * Whether a payment is still expected: only then is anything "still owed". A cancelled, expired, completed or
 * archived invoice owes nothing more, and a status the console does not know is not assumed to.
 */
export function awaitsPayment(status: string | null): boolean {
  return status === "new" || status === "pending" || status === "paid_partial";
}

/** A status as people read it: its label, a value this version does not know as the provider wrote it, `missing` for none. */
export function statusLabel(status: string | null | undefined, missing = "unknown"): string {
  if (!status) return missing;
  return isKnownStatus(status) ? STATUS_LABELS[status] : status;
}
