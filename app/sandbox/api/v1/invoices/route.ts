import { invoiceListQuerySchema, searchParamsToObject } from "@/lib/invoicing";
import { Problem } from "@/lib/problem";
import { listInvoices, requireScope, sandboxRoute } from "@/lib/sandbox";

export const GET = sandboxRoute(async ({ request, db, caller }) => {
  requireScope(caller, "invoices:read");
  const query = invoiceListQuerySchema.safeParse(searchParamsToObject(new URL(request.url).searchParams));
  if (!query.success) throw Problem.fromZod(query.error, "query");
  return listInvoices(db, caller, query.data);
});
