import { bffRoute } from "@/lib/bff/route";
import { methods } from "@/lib/http-methods";
import { upstream } from "@/lib/upstream/client";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: bffRoute("invoices:read", async () => upstream().listCurrencies()),
});
