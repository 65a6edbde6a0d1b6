import "server-only";
import { and, desc, eq, lt } from "drizzle-orm";
import type { Db } from "@/lib/platform/db";
import { env } from "@/lib/platform/env";
import { invoices, webhookAttempts, webhookDeliveries } from "@/lib/sandbox/schema";
import { CONSOLE_INBOX_MARKER } from "./callback-url";
import { withTransactions } from "./invoices";
import { statusWebhook } from "./webhooks";

/** How many of the demo's status webhooks failed (see seedFailedDeliveries). */
export const DEMO_FAILED_DELIVERIES = 5;
const DAY = 86_400_000;

/**
 * A webhook history worth resending: the demo merchant's latest completed invoices whose webhooks the console's
 * inbox answered 503 on every attempt of the retry schedule, some days ago. Resending one from the deliveries log
 * delivers it, as it would once a real receiver is back.
 */
export async function seedFailedDeliveries(tx: Db, merchantId: string): Promise<void> {
  const schedule = env().webhooks.retrySchedule;
  const lasted = schedule.reduce((sum, ms) => sum + ms, 0);
  // Changed long enough ago that every retry is over.
  const rows = await tx
    .select()
    .from(invoices)
    .where(
      and(
        eq(invoices.merchantId, merchantId),
        eq(invoices.status, "completed"),
        eq(invoices.callbackUrl, CONSOLE_INBOX_MARKER),
        lt(invoices.updatedAt, new Date(Date.now() - lasted - 2 * DAY)),
      ),
    )
    .orderBy(desc(invoices.updatedAt))
    .limit(DEMO_FAILED_DELIVERIES);
  for (const invoice of await withTransactions(tx, rows)) {
    const at = new Date(invoice.updated_at);
    const delivery = statusWebhook({ merchantId, invoice, previousStatus: "pending", simulated: false }, at);
    await tx.insert(webhookDeliveries).values({ ...delivery, state: "failed", attempts: schedule.length + 1, nextAttemptAt: null });
    let tried = at.getTime();
    await tx.insert(webhookAttempts).values(
      [0, ...schedule].map((delay, i) => {
        tried += delay;
        return {
          deliveryId: delivery.id,
          attempt: i + 1,
          at: new Date(tried + 40),
          responseStatus: 503,
          responseBody: "Service Unavailable",
          error: "the receiver answered HTTP 503",
          durationMs: 38 + ((i * 17) % 40),
        };
      }),
    );
  }
}
