import { parseQuery } from "@/lib/http-body";
import { methods } from "@/lib/http-methods";
import { invoiceListQuerySchema } from "@/lib/invoicing";
import { listInvoices, requireScope, sandboxRoute } from "@/lib/sandbox";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: sandboxRoute(async ({ request, db, caller }) => {
    requireScope(caller, "invoices:read");
    return listInvoices(db, caller, parseQuery(request, invoiceListQuerySchema));
  }),
});
