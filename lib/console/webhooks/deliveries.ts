import "server-only";
import { recordAudit } from "@/lib/console/audit";
import type { SessionUser } from "@/lib/console/auth/session";
import { invoiceAuditTarget } from "@/lib/console/invoices/change-status";
import { indexedOrderIds } from "@/lib/console/mirror/store";
import { wholeInvoiceId } from "@/lib/console/mirror/whole-invoice-id";
import type { Upstream } from "@/lib/console/upstream/client";
import {
  type DeliveryLogQuery,
  type DeliveryPage,
  type DeliveryView,
  type RedeliverRequest,
  toDeliveryQuery,
  type WebhookDelivery,
} from "@/lib/contract";
import { Problem, toProblem } from "@/lib/contract/problem";
import type { Db } from "@/lib/platform/db";

export const WEBHOOK_REDELIVER_ACTION = "webhook.redeliver";

/** Said wherever the provider has no deliveries log: it answered 404 (or 405, 501) for it. */
export const NO_DELIVERIES_LOG = "This provider offers no deliveries log: its invoicing API does not list the webhooks it sent.";

/** A page of the provider's deliveries log; a provider without one is a 404 problem that says so. */
export async function listDeliveryLog(upstream: Upstream, query: DeliveryLogQuery): Promise<DeliveryPage> {
  const page = await upstream.listAllWebhookDeliveries(query);
  if (!page) throw Problem.of("not_found", { title: "No deliveries log", detail: NO_DELIVERIES_LOG });
  return page;
}

/**
 * The provider's query for a deliveries view, its Invoice field read by `wholeInvoiceId`: the view (and its
 * address) keep what was typed, and `invoice` is the id it found.
 */
export async function deliveryQueryOf(db: Db, view: DeliveryView, timeZone: string) {
  const invoice = view.invoice ? await wholeInvoiceId(db, view.invoice) : null;
  return { invoice, query: toDeliveryQuery({ ...view, invoice }, timeZone) };
}

/** A provider's refusal of the invoice a view names, said in the field's words; any other failure as it is. */
export function inFieldWords(problem: Problem, typed: string | null): Problem {
  if (!typed || !problem.errors?.some((e) => e.pointer === "/invoice_id")) return problem;
  return Problem.of("not_found", {
    title: "No such invoice",
    detail: `No invoice has “${typed}” as its invoice id or order id. Paste a whole invoice id, the short id a table shows, or an order id from the Invoices page.`,
  });
}

/**
 * A person asks the provider to send one webhook again (the same webhook-id, a new attempt now). Audited either
 * way, under the invoice it belongs to: what was asked, and what the receiver or the provider answered.
 */
export async function redeliverFromConsole(input: {
  db: Db;
  upstream: Upstream;
  user: Pick<SessionUser, "id" | "email">;
  request: RedeliverRequest;
}): Promise<WebhookDelivery> {
  const { db, upstream, user, request } = input;
  const audit = async (invoiceId: string | null | undefined, detail: Record<string, unknown>) => {
    // The activity log names the invoice by its order id, when the console's index knows it.
    const orderId = invoiceId ? (await indexedOrderIds(db, [invoiceId]).catch(() => null))?.get(invoiceId) : undefined;
    await recordAudit(db, {
      actor: user,
      action: WEBHOOK_REDELIVER_ACTION,
      target: invoiceId ? invoiceAuditTarget(invoiceId) : `webhook:${request.webhook_id}`,
      detail: { webhook_id: request.webhook_id, ...(orderId ? { order_id: orderId } : {}), ...detail },
    });
  };
  try {
    const delivery = await upstream.redeliverWebhook(request.webhook_id);
    const last = delivery.attempts.at(-1);
    await audit(delivery.invoice_id ?? request.invoice_id, {
      outcome: "sent",
      upstream_status: 202,
      state: delivery.state,
      answer: last ? { response_status: last.response_status, error: last.error } : null,
    });
    return delivery;
  } catch (error) {
    const problem = toProblem(error);
    await audit(request.invoice_id, {
      outcome: "failed",
      upstream_status: problem.upstreamStatus ?? null,
      answer: { title: problem.title, detail: problem.detail ?? null },
    });
    throw problem;
  }
}

/** What a resend came to, in a sentence for the page that asked. */
export function redeliverySentence(delivery: WebhookDelivery): string {
  const last = delivery.attempts.at(-1);
  const answer = !last
    ? "no attempt is recorded yet"
    : last.response_status !== null
      ? `the receiver answered HTTP ${last.response_status}`
      : `no answer: ${last.error ?? "the attempt failed"}`;
  return `Resent ${delivery.webhook_id ?? "the webhook"}: ${answer}.`;
}
