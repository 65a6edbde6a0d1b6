import { bffRoute } from "@/lib/console/bff/route";
import { upstream } from "@/lib/console/upstream/client";
import { invoiceListQuerySchema } from "@/lib/contract";
import { parseQuery } from "@/lib/platform/http-body";
import { methods } from "@/lib/platform/http-methods";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: bffRoute("invoices:read", async ({ request }) => upstream().listInvoices(parseQuery(request, invoiceListQuerySchema))),
});
