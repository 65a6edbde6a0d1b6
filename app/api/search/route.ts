import { bffRoute } from "@/lib/console/bff/route";
import { search } from "@/lib/console/mirror";
import { searchQuerySchema } from "@/lib/contract";
import { parseQuery } from "@/lib/platform/http-body";
import { methods } from "@/lib/platform/http-methods";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: bffRoute("invoices:read", async ({ request }) => search(parseQuery(request, searchQuerySchema).q)),
});
