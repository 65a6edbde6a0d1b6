import { bffRoute } from "@/lib/bff/route";
import { upstream } from "@/lib/upstream/client";

export const GET = bffRoute(async () => upstream().listCurrencies());
