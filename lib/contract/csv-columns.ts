/**
 * The columns of an invoice in CSV, once for both directions: the export writes all of them,
 * payment fields flattened and transaction hashes joined with spaces; the archive import reads the subset
 * POST /archived accepts and ignores the rest.
 */
export const INVOICE_CSV_COLUMNS = [
  "invoice_id",
  "order_id",
  "order_name",
  "status",
  "fiat_amount",
  "fiat_currency",
  "crypto_amount",
  "currency",
  "priced_in",
  "allowed_error_percent",
  "callback_url",
  "created_at",
  "updated_at",
  "expires_at",
  "payment_address",
  "payment_network",
  "payment_amount_due",
  "payment_amount_received",
  "payment_rate",
  "payment_paid_at",
  "payment_confirmations",
  "payment_confirmations_required",
  "tx_hashes",
] as const;
export type InvoiceCsvColumn = (typeof INVOICE_CSV_COLUMNS)[number];

/** The columns the archive import sends to POST /archived. */
export const ARCHIVE_CSV_COLUMNS = [
  "order_id",
  "order_name",
  "fiat_amount",
  "fiat_currency",
  "crypto_amount",
  "currency",
  "allowed_error_percent",
  "callback_url",
  "created_at",
] as const satisfies readonly InvoiceCsvColumn[];

/**
 * Columns the archive import reads without sending them: which amount to send (`priced_in`) and the rate the
 * other will be derived at (`payment_rate`), to show it and flag a row whose file value differs.
 */
export const ARCHIVE_CSV_READ_COLUMNS = ["priced_in", "payment_rate"] as const satisfies readonly InvoiceCsvColumn[];
