import { bffRoute } from "@/lib/console/bff/route";
import { upstream } from "@/lib/console/upstream/client";
import { redeliverFromConsole } from "@/lib/console/webhooks/deliveries";
import { redeliverRequestSchema } from "@/lib/contract";
import { Problem } from "@/lib/contract/problem";
import { getDatabase } from "@/lib/platform/db";
import { methods } from "@/lib/platform/http-methods";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: bffRoute<{ id: string }>("webhooks:manage", async ({ user, params }) => {
    const parsed = redeliverRequestSchema.safeParse({ webhook_id: params.id });
    if (!parsed.success) throw Problem.fromZod(parsed.error, "path");
    const request = parsed.data;
    const delivery = await redeliverFromConsole({ db: await getDatabase(), upstream: upstream(), user, request });
    return Response.json(delivery, { status: 202, headers: { "cache-control": "no-store" } });
  }),
});
