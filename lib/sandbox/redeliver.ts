import "server-only";
import { and, count, eq, ne } from "drizzle-orm";
import type { Db } from "@/lib/platform/db";
import { webhookAttempts, webhookDeliveries } from "@/lib/sandbox/schema";
import { postCallback } from "./callback";
import { resolveCallbackUrl } from "./callback-url";
import { findOwnDelivery, withAttempts } from "./deliveries";
import type { Caller } from "./keys";
import { signedHeaders, storableText, type WebhookConfig, webhookConfig } from "./webhooks";
import type { ApiWebhookDelivery } from "./wire-schemas";

/**
 * POST /webhook-deliveries/{id}/redeliver (sandbox extension): one attempt now, whatever the delivery's state,
 * with the same `webhook-id` (a receiver that processed it can tell) and a fresh timestamp and signature. It is
 * outside the retry schedule: a delivery still retrying keeps its next attempt and the tries it has left, unless
 * this one gets a 2xx, which delivers it. Answers the delivery with the attempt recorded.
 */
export async function redeliverWebhook(
  db: Db,
  caller: Caller,
  rawId: string,
  config: WebhookConfig = webhookConfig(),
): Promise<ApiWebhookDelivery> {
  const delivery = await findOwnDelivery(db, caller, rawId);
  const at = new Date();
  let responseStatus: number | null = null;
  let responseBody: string | null = null;
  let error: string | null = null;
  try {
    const answer = await postCallback(resolveCallbackUrl(delivery.url), delivery.payload, await signedHeaders(db, delivery, at), {
      policy: config.policy,
      timeoutMs: config.timeoutMs,
    });
    responseStatus = answer.status;
    responseBody = storableText(answer.body);
    if (responseStatus < 200 || responseStatus > 299) error = `the receiver answered HTTP ${responseStatus}`;
  } catch (cause) {
    error = cause instanceof Error ? cause.message : String(cause);
  }
  const durationMs = Date.now() - at.getTime();

  await db.transaction(async (tx) => {
    // Its number only orders it among the delivery's attempts; scheduled ones are numbered by the dispatcher.
    const [{ made }] = await tx.select({ made: count() }).from(webhookAttempts).where(eq(webhookAttempts.deliveryId, delivery.id));
    await tx
      .insert(webhookAttempts)
      .values({ deliveryId: delivery.id, attempt: made + 1, at, responseStatus, responseBody, error, durationMs, redelivery: true });
    if (!error) {
      await tx
        .update(webhookDeliveries)
        .set({ state: "delivered", nextAttemptAt: null })
        .where(and(eq(webhookDeliveries.id, delivery.id), ne(webhookDeliveries.state, "delivered")));
    }
  });
  const [row] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, delivery.id));
  return (await withAttempts(db, [row]))[0];
}
