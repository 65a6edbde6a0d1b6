import { bffRoute } from "@/lib/console/bff/route";
import { upstream } from "@/lib/console/upstream/client";
import { simulateWebhookFromConsole } from "@/lib/console/webhooks/simulate";
import { webhookSimulationSchema } from "@/lib/contract";
import { getDatabase } from "@/lib/platform/db";
import { parseJsonBody } from "@/lib/platform/http-body";
import { methods } from "@/lib/platform/http-methods";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: bffRoute("webhooks:simulate", async ({ request, user }) => {
    const body = await parseJsonBody(request, webhookSimulationSchema);
    return simulateWebhookFromConsole({ db: await getDatabase(), upstream: upstream(), user, request: body });
  }),
});
