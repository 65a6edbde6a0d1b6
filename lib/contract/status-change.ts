import { z } from "zod";
import { reasonSchema } from "./approvals";
import { INVOICE_STATUSES } from "./status";

/** PATCH /invoices/{id} (spec §4.2): only the six statuses; `archived` comes from POST /archived alone. */
export const invoiceStatusUpdateSchema = z.object({
  status: z.enum(INVOICE_STATUSES, { error: `must be one of ${INVOICE_STATUSES.join(", ")}` }),
});
export type InvoiceStatusUpdate = z.infer<typeof invoiceStatusUpdateSchema>;

/**
 * The console's own request to change a status: the API's body plus the reason the audit log keeps. Every
 * manual change says why (the provider's PATCH has no reason: the console keeps it).
 */
export const statusChangeRequestSchema = invoiceStatusUpdateSchema.extend({ reason: reasonSchema });
export type StatusChangeRequest = z.input<typeof statusChangeRequestSchema>;
