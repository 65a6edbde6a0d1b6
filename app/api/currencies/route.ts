import { bffRoute } from "@/lib/console/bff/route";
import { upstream } from "@/lib/console/upstream/client";
import { methods } from "@/lib/platform/http-methods";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: bffRoute("invoices:read", async () => upstream().listCurrencies()),
});
