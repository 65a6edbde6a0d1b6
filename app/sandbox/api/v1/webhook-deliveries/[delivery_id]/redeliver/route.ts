import { methods } from "@/lib/platform/http-methods";
import { redeliverWebhook, requireScope, sandboxRoute, wireJson } from "@/lib/sandbox";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: sandboxRoute<{ delivery_id: string }>(async ({ db, caller, params }) => {
    requireScope(caller, "webhooks:write");
    const delivery = await redeliverWebhook(db, caller, params.delivery_id);
    return wireJson(delivery, { status: 202, headers: { "cache-control": "no-store" } });
  }),
});
