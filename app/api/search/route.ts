import { bffRoute } from "@/lib/bff/route";
import { parseQuery } from "@/lib/http-body";
import { methods } from "@/lib/http-methods";
import { searchQuerySchema } from "@/lib/invoicing";
import { search } from "@/lib/search";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: bffRoute("invoices:read", async ({ request }) => search(parseQuery(request, searchQuerySchema).q)),
});
