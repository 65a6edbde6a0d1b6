import { parseJsonBody } from "@/lib/http-body";
import { invoiceStatusUpdateSchema } from "@/lib/invoicing";
import { getInvoice, requireScope, sandboxRoute, updateInvoiceStatus } from "@/lib/sandbox";

export const GET = sandboxRoute<{ id: string }>(async ({ db, caller, params }) => {
  requireScope(caller, "invoices:read");
  return getInvoice(db, caller, params.id);
});

export const PATCH = sandboxRoute<{ id: string }>(async ({ request, db, caller, params }) => {
  requireScope(caller, "invoices:write");
  const { status } = await parseJsonBody(request, invoiceStatusUpdateSchema);
  return updateInvoiceStatus(db, caller, params.id, status);
});
