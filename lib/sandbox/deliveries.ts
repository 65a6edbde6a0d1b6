import "server-only";
import { asc, desc, eq, inArray } from "drizzle-orm";
import type { AnyInvoiceStatus } from "@/lib/contract";
import type { Db } from "@/lib/platform/db";
import { webhookAttempts, webhookDeliveries } from "@/lib/sandbox/schema";
import { parseInvoiceId } from "./ids";
import { getInvoice } from "./invoices";
import type { Caller } from "./keys";
import type { ApiWebhookDeliveryList } from "./wire-schemas";

/**
 * GET /invoices/{id}/webhook-deliveries (sandbox extension, ARCHITECTURE.md §3): every webhook the invoice sent or
 * simulated, newest first, each with every attempt (time, status code, latency, the first KB of the answer,
 * the error). The same 404 / 403 as reading the invoice.
 */
export async function listWebhookDeliveries(db: Db, caller: Caller, rawId: string): Promise<ApiWebhookDeliveryList> {
  await getInvoice(db, caller, rawId);
  const deliveries = await db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.invoiceId, parseInvoiceId(rawId)!))
    .orderBy(desc(webhookDeliveries.id))
    .limit(100);
  const attempts = deliveries.length
    ? await db
        .select()
        .from(webhookAttempts)
        .where(
          inArray(
            webhookAttempts.deliveryId,
            deliveries.map((d) => d.id),
          ),
        )
        .orderBy(asc(webhookAttempts.attempt))
    : [];
  return {
    deliveries: deliveries.map((d) => {
      const payload = readPayload(d.payload);
      return {
        webhook_id: `msg_${d.id}`,
        type: payload.type,
        url: d.url,
        simulated: payload.simulated,
        status: payload.status,
        state: d.state as "pending" | "delivered" | "failed",
        created_at: d.createdAt.toISOString(),
        next_attempt_at: d.state === "pending" && d.nextAttemptAt ? d.nextAttemptAt.toISOString() : null,
        attempts: attempts
          .filter((a) => a.deliveryId === d.id)
          .map((a) => ({
            attempt: a.attempt,
            at: a.at.toISOString(),
            response_status: a.responseStatus,
            duration_ms: a.durationMs,
            response_body: a.responseBody,
            error: a.error,
          })),
      };
    }),
  };
}

/** The payload is ours (written by enqueueStatusWebhook), so its shape is known. */
function readPayload(payload: string): { type: string; simulated: boolean; status: AnyInvoiceStatus | null } {
  const body = JSON.parse(payload) as { type: string; data: { simulated?: boolean; invoice?: { status?: AnyInvoiceStatus } } };
  return { type: body.type, simulated: body.data.simulated === true, status: body.data.invoice?.status ?? null };
}
