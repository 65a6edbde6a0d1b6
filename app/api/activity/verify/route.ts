import { verifyChain } from "@/lib/console/activity/chain";
import { bffRoute } from "@/lib/console/bff/route";
import { getDatabase } from "@/lib/platform/db";
import { methods } from "@/lib/platform/http-methods";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: bffRoute("audit:verify", async () => verifyChain(await getDatabase())),
});
