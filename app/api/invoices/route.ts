import { bffRoute } from "@/lib/console/bff/route";
import { listView } from "@/lib/console/invoices/list-source";
import { invoiceViewQuerySchema } from "@/lib/contract/invoice-view";
import { parseQuery } from "@/lib/platform/http-body";
import { methods } from "@/lib/platform/http-methods";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: bffRoute("invoices:read", async ({ request }) => listView(parseQuery(request, invoiceViewQuerySchema))),
});
