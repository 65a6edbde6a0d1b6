import { bffRoute } from "@/lib/bff/route";
import { methods } from "@/lib/http-methods";
import { ratesCache } from "@/lib/rates";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: bffRoute("invoices:read", () => ratesCache().get()),
});
