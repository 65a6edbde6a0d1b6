import { bffRoute } from "@/lib/bff/route";
import { getDatabase } from "@/lib/db";
import { parseJsonBody } from "@/lib/http-body";
import { methods } from "@/lib/http-methods";
import { webhookSimulationSchema } from "@/lib/invoicing";
import { upstream } from "@/lib/upstream/client";
import { simulateWebhookFromConsole } from "@/lib/webhooks/simulate";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: bffRoute("webhooks:simulate", async ({ request, user }) => {
    const body = await parseJsonBody(request, webhookSimulationSchema);
    return simulateWebhookFromConsole({ db: await getDatabase(), upstream: upstream(), user, request: body });
  }),
});
