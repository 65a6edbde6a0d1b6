import { bffRoute } from "@/lib/console/bff/route";
import { ratesCache } from "@/lib/console/rates";
import { methods } from "@/lib/platform/http-methods";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: bffRoute("invoices:read", () => ratesCache().get()),
});
