import { bffRoute } from "@/lib/bff/route";
import { parseQuery } from "@/lib/http-body";
import { methods } from "@/lib/http-methods";
import { invoiceListQuerySchema } from "@/lib/invoicing";
import { upstream } from "@/lib/upstream/client";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: bffRoute("invoices:read", async ({ request }) => upstream().listInvoices(parseQuery(request, invoiceListQuerySchema))),
});
