import "server-only";
import type { DeliveryPage, WebhookDelivery } from "@/lib/contract";
import { isObject, readPagination, toInstant, toInteger, toNumber, toText } from "./normalise";

/** The deliveries extension (a sandbox's; another provider may offer its like): a list, or `{deliveries}`. */
export function normaliseDeliveries(raw: unknown): WebhookDelivery[] | null {
  const list = Array.isArray(raw) ? raw : isObject(raw) ? (raw.deliveries ?? raw.items ?? raw.data) : undefined;
  if (!Array.isArray(list)) return null;
  return list.filter(isObject).map(readDelivery);
}

/** A page of the deliveries log (GET /webhook-deliveries): items and pagination, as the invoice list is read. */
export function normaliseDeliveryPage(raw: unknown): DeliveryPage | null {
  if (!isObject(raw)) return null;
  const items = [raw.items, raw.deliveries, raw.data].find(Array.isArray) as unknown[] | undefined;
  if (!items) return null;
  return { items: items.filter(isObject).map(readDelivery), pagination: readPagination(raw.pagination ?? raw.meta ?? raw, items.length) };
}

function readDelivery(d: Record<string, unknown>): WebhookDelivery {
  return {
    webhook_id: toText(d.webhook_id ?? d.id),
    invoice_id: toText(d.invoice_id),
    type: toText(d.type ?? d.event),
    url: toText(d.url),
    simulated: typeof d.simulated === "boolean" ? d.simulated : null,
    status: toText(d.status),
    state: toText(d.state),
    created_at: toInstant(d.created_at),
    next_attempt_at: toInstant(d.next_attempt_at),
    attempts: (Array.isArray(d.attempts) ? d.attempts : []).filter(isObject).map((a) => ({
      attempt: toInteger(a.attempt),
      at: toInstant(a.at),
      response_status: toInteger(a.response_status),
      duration_ms: toNumber(a.duration_ms),
      response_body: toText(a.response_body),
      error: toText(a.error),
      redelivery: a.redelivery === true,
    })),
  };
}
