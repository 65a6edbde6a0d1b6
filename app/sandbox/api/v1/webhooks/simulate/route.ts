import { webhookSimulationSchema } from "@/lib/contract";
import { methods } from "@/lib/platform/http-methods";
import { readSandboxJsonBody, requireScope, sandboxRoute, simulateWebhook, wakeWebhooks } from "@/lib/sandbox";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: sandboxRoute(async ({ request, db, caller }) => {
    requireScope(caller, "webhooks:write");
    const input = await readSandboxJsonBody(request, webhookSimulationSchema);
    const result = await simulateWebhook(db, caller, input);
    // The first attempt is made; retries are the dispatcher's.
    wakeWebhooks();
    return result;
  }),
});
