import { methods } from "@/lib/platform/http-methods";
import { listWebhookDeliveries, requireScope, sandboxRoute } from "@/lib/sandbox";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: sandboxRoute<{ id: string }>(async ({ db, caller, params }) => {
    requireScope(caller, "invoices:read");
    return listWebhookDeliveries(db, caller, params.id);
  }),
});
