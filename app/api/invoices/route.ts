import { bffRoute } from "@/lib/bff/route";
import { parseQuery } from "@/lib/http-body";
import { invoiceListQuerySchema } from "@/lib/invoicing";
import { upstream } from "@/lib/upstream/client";

export const GET = bffRoute("invoices:read", async ({ request }) =>
  upstream().listInvoices(parseQuery(request, invoiceListQuerySchema)),
);
