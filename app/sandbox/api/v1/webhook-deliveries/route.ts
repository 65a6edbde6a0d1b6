import { parseQuery } from "@/lib/platform/http-body";
import { methods } from "@/lib/platform/http-methods";
import { listMerchantDeliveries, requireScope, sandboxRoute } from "@/lib/sandbox";
import { deliveryListQuerySchema } from "@/lib/sandbox/wire-schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: sandboxRoute(async ({ request, db, caller }) => {
    requireScope(caller, "invoices:read");
    return listMerchantDeliveries(db, caller, parseQuery(request, deliveryListQuerySchema));
  }),
});
