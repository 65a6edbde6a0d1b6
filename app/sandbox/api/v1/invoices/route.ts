import { invoiceListQuerySchema } from "@/lib/contract";
import { parseQuery } from "@/lib/platform/http-body";
import { methods } from "@/lib/platform/http-methods";
import { listInvoices, requireScope, sandboxRoute } from "@/lib/sandbox";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: sandboxRoute(async ({ request, db, caller }) => {
    requireScope(caller, "invoices:read");
    return listInvoices(db, caller, parseQuery(request, invoiceListQuerySchema));
  }),
});
