import { bffRoute } from "@/lib/bff/route";
import { upstream } from "@/lib/upstream/client";

export const GET = bffRoute("invoices:read", async () => upstream().listCurrencies());
