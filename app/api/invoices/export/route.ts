import { bffRoute } from "@/lib/console/bff/route";
import { exportInvoicesResponse } from "@/lib/console/invoices/export-response";
import { methods } from "@/lib/platform/http-methods";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: bffRoute("invoices:export", ({ request, user }) => exportInvoicesResponse(request, user)),
});
