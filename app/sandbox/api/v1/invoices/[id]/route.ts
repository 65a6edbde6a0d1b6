import { invoiceStatusUpdateSchema } from "@/lib/contract";
import { parseJsonBodyLossless } from "@/lib/platform/http-body";
import { methods } from "@/lib/platform/http-methods";
import { getInvoice, requireScope, sandboxRoute, updateInvoiceStatus, wakeWebhooks } from "@/lib/sandbox";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: sandboxRoute<{ id: string }>(async ({ db, caller, params }) => {
    requireScope(caller, "invoices:read");
    return getInvoice(db, caller, params.id);
  }),
  PATCH: sandboxRoute<{ id: string }>(async ({ request, db, caller, params }) => {
    requireScope(caller, "invoices:write");
    const { status } = await parseJsonBodyLossless(request, invoiceStatusUpdateSchema);
    const invoice = await updateInvoiceStatus(db, caller, params.id, status);
    wakeWebhooks();
    return invoice;
  }),
});
