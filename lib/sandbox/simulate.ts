import "server-only";
import type { WebhookSimulation, WebhookSimulationResult } from "@/lib/contract";
import { Problem } from "@/lib/contract/problem";
import type { Db } from "@/lib/platform/db";
import { getInvoice } from "./invoices";
import type { Caller } from "./keys";
import { type AttemptOutcome, deliverNow, enqueueStatusWebhook, type WebhookConfig, webhookConfig } from "./webhooks";

/**
 * POST /webhooks/simulate (spec §4.4): the status-change webhook the invoice would send on a change to
 * `status`, through the same durable outbox, signature and retries as a real one, while the invoice itself
 * stays as it is. The payload says `simulated: true`. Answers once the first attempt is made, with where it
 * went and what the receiver answered.
 */
export async function simulateWebhook(
  db: Db,
  caller: Caller,
  input: WebhookSimulation,
  config: WebhookConfig = webhookConfig(),
): Promise<WebhookSimulationResult> {
  const invoice = await getInvoice(db, caller, input.invoice_id);
  // An archived invoice is a record of a payment made elsewhere: it never sends a webhook, not even a test one.
  if (invoice.status === "archived") {
    throw Problem.of("archived_invoice", {
      title: "An archived invoice sends no webhooks",
      detail: "invoice_id names an archived record (created with POST /archived): archived invoices never send webhooks.",
      errors: [{ pointer: "/invoice_id", code: "archived_invoice", detail: "names an archived invoice, which never sends webhooks" }],
    });
  }
  if (!invoice.callback_url) {
    throw new Problem({
      status: 422,
      code: "validation_failed",
      title: "The request is not valid",
      detail: "invoice_id names an invoice without a callback URL: there is nowhere to send its webhook.",
      errors: [
        {
          pointer: "/invoice_id",
          code: "no_callback_url",
          detail: "names an invoice without a callback URL: there is nowhere to send its webhook",
        },
      ],
    });
  }
  const deliveryId = await db.transaction((tx) =>
    enqueueStatusWebhook(tx, {
      merchantId: caller.merchantId,
      invoice: { ...invoice, status: input.status },
      previousStatus: invoice.status,
      simulated: true,
    }),
  );
  const outcome = await deliverNow(db, deliveryId!, config);
  return { status: outcome.state, message: describeOutcome(`msg_${deliveryId}`, outcome) };
}

function describeOutcome(messageId: string, o: AttemptOutcome): string {
  const sent = `Webhook ${messageId} sent to ${o.url}`;
  // What a refusing receiver said is worth reading; a 2xx's body is not.
  const said = o.responseBody?.trim().replace(/\s+/g, " ");
  const body = said ? `: “${said.length > 200 ? `${said.slice(0, 200)}…` : said}”` : "";
  const next =
    o.retryInMs !== null
      ? ` It will be tried again in ${formatDelay(o.retryInMs)}.`
      : o.state === "failed"
        ? " It will not be tried again."
        : "";
  if (o.state === "delivered") return `${sent}: the receiver answered HTTP ${o.responseStatus}.`;
  if (o.responseStatus !== null) return `${sent}: the receiver answered HTTP ${o.responseStatus}${body}.${next}`;
  return `Webhook ${messageId} to ${o.url} got no answer: ${o.error}.${next}`;
}

function formatDelay(ms: number): string {
  if (ms < 1_000) return `${ms} ms`;
  if (ms < 60_000) return `${Math.round(ms / 1_000)} s`;
  if (ms < 3_600_000) return `${Math.round(ms / 60_000)} min`;
  return `${Math.round(ms / 3_600_000)} h`;
}
