"use server";

import { guardedAction } from "@/lib/console/bff/action";
import { upstream } from "@/lib/console/upstream/client";
import { simulateWebhookFromConsole } from "@/lib/console/webhooks/simulate";
import { webhookSimulationSchema } from "@/lib/contract";
import { getDatabase } from "@/lib/platform/db";

/**
 * An admin's test webhook (the webhooks page and an invoice's page): the same guard, use case and audit entry
 * as POST /api/webhooks/simulate.
 */
export const simulateWebhookAction = guardedAction("webhooks:simulate", webhookSimulationSchema, async (request, user) => {
  const result = await simulateWebhookFromConsole({ db: await getDatabase(), upstream: upstream(), user: user!, request });
  return { result, answeredAt: Date.now() };
});
