import { bffRoute } from "@/lib/bff/route";
import { methods } from "@/lib/http-methods";
import { exportInvoicesResponse } from "@/lib/invoices/export-response";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: bffRoute("invoices:export", ({ request, user }) => exportInvoicesResponse(request, user)),
});
