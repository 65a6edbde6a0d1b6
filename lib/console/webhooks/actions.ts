"use server";

import { revalidatePath } from "next/cache";
import { guardedAction } from "@/lib/console/bff/action";
import { upstream } from "@/lib/console/upstream/client";
import { redeliverFromConsole, redeliverySentence } from "@/lib/console/webhooks/deliveries";
import { simulateWebhookFromConsole } from "@/lib/console/webhooks/simulate";
import { redeliverRequestSchema, webhookSimulationSchema } from "@/lib/contract";
import { getDatabase } from "@/lib/platform/db";

/**
 * An admin's test webhook (the webhooks page and an invoice's page): the same guard, use case and audit entry
 * as POST /api/webhooks/simulate.
 */
export const simulateWebhookAction = guardedAction("webhooks:simulate", webhookSimulationSchema, async (request, user) => {
  const result = await simulateWebhookFromConsole({ db: await getDatabase(), upstream: upstream(), user: user!, request });
  return { result, answeredAt: Date.now() };
});

/**
 * Resend one webhook (the deliveries view and an invoice's timeline), as POST /api/webhook-deliveries/{id}/redeliver:
 * a plain form, so it works before scripts load. The page is drawn again with the new attempt.
 */
export const redeliverWebhookAction = guardedAction("webhooks:manage", redeliverRequestSchema, async (request, user) => {
  const delivery = await redeliverFromConsole({ db: await getDatabase(), upstream: upstream(), user: user!, request });
  revalidatePath("/webhooks/deliveries");
  if (delivery.invoice_id) revalidatePath(`/invoices/${encodeURIComponent(delivery.invoice_id)}`);
  return { ok: redeliverySentence(delivery), answeredAt: Date.now() };
});
