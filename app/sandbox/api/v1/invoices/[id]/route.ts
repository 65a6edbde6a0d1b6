import { methods } from "@/lib/platform/http-methods";
import { getInvoice, readSandboxJsonBody, requireScope, sandboxRoute, updateInvoiceStatus, wakeWebhooks } from "@/lib/sandbox";
import { apiStatusUpdateSchema } from "@/lib/sandbox/wire-schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: sandboxRoute<{ id: string }>(async ({ db, caller, params }) => {
    requireScope(caller, "invoices:read");
    return getInvoice(db, caller, params.id);
  }),
  PATCH: sandboxRoute<{ id: string }>(async ({ request, db, caller, params }) => {
    requireScope(caller, "invoices:write");
    const { status } = await readSandboxJsonBody(request, apiStatusUpdateSchema);
    const invoice = await updateInvoiceStatus(db, caller, params.id, status);
    wakeWebhooks();
    return invoice;
  }),
});
