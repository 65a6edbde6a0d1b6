import "server-only";
import { and, asc, count, desc, eq, gt, inArray, lt, type SQL, sql } from "drizzle-orm";
import type { AnyInvoiceStatus } from "@/lib/contract";
import { paginationOf } from "@/lib/contract/invoice";
import { notFound, Problem } from "@/lib/contract/problem";
import type { Db } from "@/lib/platform/db";
import { webhookAttempts, webhookDeliveries } from "@/lib/sandbox/schema";
import { resolveCallbackUrl } from "./callback-url";
import { formatInvoiceId, parseInvoiceId, UUID } from "./ids";
import { getInvoice } from "./invoices";
import type { Caller } from "./keys";
import type {
  ApiWebhookDelivery,
  ApiWebhookDeliveryList,
  ApiWebhookDeliveryPage,
  DeliveryListQuery,
  DeliveryState,
  WEBHOOK_EVENTS,
} from "./wire-schemas";

type DeliveryRow = typeof webhookDeliveries.$inferSelect;

const MESSAGE_PREFIX = "msg_";

/**
 * GET /invoices/{id}/webhook-deliveries (sandbox extension, ARCHITECTURE.md §3): every webhook the invoice sent or
 * simulated, newest first, each with every attempt (time, status code, latency, the first 2 KB of the answer,
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
  return { deliveries: await withAttempts(db, deliveries) };
}

/**
 * GET /webhook-deliveries (sandbox extension): the merchant's deliveries, newest first (ties by id, so pages never
 * overlap), filtered and paged as the invoice list is, with an exact total.
 */
export async function listMerchantDeliveries(db: Db, caller: Caller, query: DeliveryListQuery): Promise<ApiWebhookDeliveryPage> {
  const where = and(eq(webhookDeliveries.merchantId, caller.merchantId), ...filters(query));
  const offset = (query.page - 1) * query.page_size;
  const { total, rows } = await db.transaction(
    async (tx) => {
      const [{ total }] = await tx.select({ total: count() }).from(webhookDeliveries).where(where);
      if (offset >= total) return { total, rows: [] };
      const rows = await tx
        .select()
        .from(webhookDeliveries)
        .where(where)
        .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
        .limit(query.page_size)
        .offset(offset);
      return { total, rows };
    },
    // The total and the page from one snapshot, whatever the dispatcher commits between.
    { isolationLevel: "repeatable read", accessMode: "read only" },
  );
  return { items: await withAttempts(db, rows), pagination: paginationOf(query.page, query.page_size, total) };
}

function filters(query: DeliveryListQuery): SQL[] {
  const where: SQL[] = [];
  if (query.state) where.push(stateIs(query.state));
  if (query.invoice_id) where.push(eq(webhookDeliveries.invoiceId, parseInvoiceId(query.invoice_id)!));
  if (query.event) where.push(sql`(${webhookDeliveries.payload}::jsonb ->> 'type') = ${query.event}`);
  if (query.created_after) where.push(gt(webhookDeliveries.createdAt, new Date(query.created_after)));
  if (query.created_before) where.push(lt(webhookDeliveries.createdAt, new Date(query.created_before)));
  return where;
}

/** The stored state (pending, delivered, failed) with pending split by whether it has been tried yet. */
function stateIs(state: DeliveryState): SQL {
  if (state === "pending") return and(eq(webhookDeliveries.state, "pending"), eq(webhookDeliveries.attempts, 0))!;
  if (state === "retrying") return and(eq(webhookDeliveries.state, "pending"), gt(webhookDeliveries.attempts, 0))!;
  return eq(webhookDeliveries.state, state);
}

function deliveryState(row: DeliveryRow): DeliveryState {
  if (row.state === "pending") return row.attempts > 0 ? "retrying" : "pending";
  return row.state as DeliveryState;
}

/** The caller's own delivery by `msg_<uuid>` or the bare UUID: unknown or malformed → 404, another merchant's → 403. */
export async function findOwnDelivery(db: Db, caller: Caller, rawId: string): Promise<DeliveryRow> {
  const trimmed = rawId.trim();
  const uuid = trimmed.startsWith(MESSAGE_PREFIX) ? trimmed.slice(MESSAGE_PREFIX.length) : trimmed;
  const [row] = UUID.test(uuid) ? await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, uuid.toLowerCase())) : [];
  if (!row) throw notFound(`No webhook delivery has the id ${JSON.stringify(rawId)}.`);
  if (row.merchantId !== caller.merchantId) {
    throw Problem.of("other_merchant", {
      title: "This delivery belongs to another merchant",
      detail: "The API key's merchant did not send this webhook.",
    });
  }
  return row;
}

/** The deliveries in the API's shape, each with its attempts in the order they were made. */
export async function withAttempts(db: Db, deliveries: DeliveryRow[]): Promise<ApiWebhookDelivery[]> {
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
        .orderBy(asc(webhookAttempts.at), asc(webhookAttempts.attempt))
    : [];
  return deliveries.map((d) => {
    const payload = readPayload(d.payload);
    const state = deliveryState(d);
    return {
      webhook_id: `${MESSAGE_PREFIX}${d.id}`,
      invoice_id: formatInvoiceId(d.invoiceId),
      type: payload.type,
      url: resolveCallbackUrl(d.url),
      simulated: payload.simulated,
      status: payload.status,
      state,
      created_at: d.createdAt.toISOString(),
      next_attempt_at: (state === "pending" || state === "retrying") && d.nextAttemptAt ? d.nextAttemptAt.toISOString() : null,
      attempts: attempts
        .filter((a) => a.deliveryId === d.id)
        .map((a, i) => ({
          attempt: i + 1,
          at: a.at.toISOString(),
          response_status: a.responseStatus,
          duration_ms: a.durationMs,
          response_body: a.responseBody,
          error: a.error,
          redelivery: a.redelivery,
        })),
    };
  });
}

/** The payload is ours (written by enqueueStatusWebhook), so its shape is known. */
function readPayload(payload: string): { type: (typeof WEBHOOK_EVENTS)[number]; simulated: boolean; status: AnyInvoiceStatus | null } {
  const body = JSON.parse(payload) as {
    type: (typeof WEBHOOK_EVENTS)[number];
    data: { simulated?: boolean; invoice?: { status?: AnyInvoiceStatus } };
  };
  return { type: body.type, simulated: body.data.simulated === true, status: body.data.invoice?.status ?? null };
}
