import "server-only";
import { and, desc, eq, lt } from "drizzle-orm";
import type { Db } from "@/lib/platform/db";
import { env } from "@/lib/platform/env";
import { invoices, webhookAttempts, webhookDeliveries } from "@/lib/sandbox/schema";
import { CONSOLE_INBOX_MARKER } from "./callback-url";
import { withTransactions } from "./invoices";
import { statusWebhook } from "./webhooks";

/** How many of the demo's status webhooks failed, and how many arrived (see seedDeliveries). */
const DEMO_FAILED_DELIVERIES = 5;
const DEMO_DELIVERED_DELIVERIES = 12;
const DAY = 86_400_000;

const UNAVAILABLE = { responseStatus: 503, responseBody: "Service Unavailable", error: "the receiver answered HTTP 503" };
const RECEIVED = { responseStatus: 200, responseBody: '{"received":true}', error: null };

/**
 * A webhook history worth reading and resending: of the demo merchant's latest completed invoices, the first
 * few webhooks the console's inbox answered 503 on every attempt of the retry schedule (resending one delivers
 * it, as it would once a real receiver is back), and the next ones arrived, every third after one retry. All
 * some days ago, so that no retry is still due.
 */
export async function seedDeliveries(tx: Db, merchantId: string): Promise<void> {
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
    .limit(DEMO_FAILED_DELIVERIES + DEMO_DELIVERED_DELIVERIES);
  for (const [n, invoice] of (await withTransactions(tx, rows)).entries()) {
    const failed = n < DEMO_FAILED_DELIVERIES;
    const answers = failed ? [0, ...schedule].map(() => UNAVAILABLE) : n % 3 === 0 ? [UNAVAILABLE, RECEIVED] : [RECEIVED];
    const at = new Date(invoice.updated_at);
    const delivery = statusWebhook({ merchantId, invoice, previousStatus: "pending", simulated: false }, at);
    await tx
      .insert(webhookDeliveries)
      .values({ ...delivery, state: failed ? "failed" : "delivered", attempts: answers.length, nextAttemptAt: null });
    let tried = at.getTime();
    await tx.insert(webhookAttempts).values(
      answers.map((answer, i) => {
        tried += i === 0 ? 0 : schedule[i - 1];
        return { deliveryId: delivery.id, attempt: i + 1, at: new Date(tried + 40), ...answer, durationMs: 38 + ((i * 17 + n) % 40) };
      }),
    );
  }
}
