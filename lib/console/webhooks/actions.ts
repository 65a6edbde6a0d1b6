"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { guardedAction } from "@/lib/console/bff/action";
import { upstream } from "@/lib/console/upstream/client";
import { runRedeliverInBackground, startBulkRedeliver } from "@/lib/console/webhooks/bulk-redeliver";
import { deliveryQueryOf, redeliverFromConsole, redeliverySentence } from "@/lib/console/webhooks/deliveries";
import { simulateWebhookFromConsole } from "@/lib/console/webhooks/simulate";
import { deliveryViewHref, readDeliveryView, redeliverRequestSchema, redeliverViewSchema, webhookSimulationSchema } from "@/lib/contract";
import { Problem } from "@/lib/contract/problem";
import { displayTimeZone } from "@/lib/contract/time-zone";
import { getDatabase } from "@/lib/platform/db";
import { env } from "@/lib/platform/env";

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

/**
 * "Resend all failed in this view": the view's failed deliveries become one job on the server (at most 1,000, a
 * few at a time, each resend audited); the page then shows the job, its deliveries and what became of each.
 */
export const startBulkRedeliverAction = guardedAction("webhooks:manage", redeliverViewSchema, async (input, user) => {
  const view = readDeliveryView({ state: "failed", invoice: input.invoice, from: input.from, to: input.to });
  const db = await getDatabase();
  const { query } = await deliveryQueryOf(db, { ...view, page: 1 }, displayTimeZone(env().timeZone, user!.timeZone).timeZone);
  if (!query.success) throw Problem.fromZod(query.error, "form");
  const jobId = await startBulkRedeliver({ db, upstream: upstream() }, user!, query.data);
  runRedeliverInBackground(jobId);
  redirect(deliveryViewHref(view, jobId));
});
