import { bffRoute } from "@/lib/console/bff/route";
import { upstream } from "@/lib/console/upstream/client";
import { listDeliveryLog } from "@/lib/console/webhooks/deliveries";
import { deliveryLogQuerySchema } from "@/lib/contract";
import { parseQuery } from "@/lib/platform/http-body";
import { methods } from "@/lib/platform/http-methods";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: bffRoute("webhooks:manage", async ({ request }) => listDeliveryLog(upstream(), parseQuery(request, deliveryLogQuerySchema))),
});
