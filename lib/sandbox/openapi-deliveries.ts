import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { invoiceListQueryShape } from "../contract/list-query-schema";
import {
  dateForms,
  describedAs,
  forbiddenScope,
  INVOICE_ID_EXAMPLE,
  json,
  pagingQuery,
  problem,
  problemResponse,
  serverError,
  unauthorized,
} from "./openapi-parts";
import { apiWebhookDeliveryPageSchema, apiWebhookDeliverySchema, DELIVERY_STATES, WEBHOOK_EVENTS } from "./wire-schemas";

/*
 * The deliveries log and redelivery in the sandbox's OpenAPI document (./openapi.ts): a sandbox extension, not in
 * the spec, marked `x-sandbox-extension`.
 */

const WEBHOOK_ID_EXAMPLE = "msg_0190a1d2-2222-7000-8000-000000000009";

export const deliveryExample = {
  webhook_id: WEBHOOK_ID_EXAMPLE,
  invoice_id: INVOICE_ID_EXAMPLE,
  type: "invoice.status_changed",
  url: "https://shop.example.com/api/payments/webhook",
  simulated: false,
  status: "completed",
  state: "delivered",
  created_at: "2026-11-22T09:30:00.000Z",
  next_attempt_at: null,
  attempts: [
    {
      attempt: 1,
      at: "2026-11-22T09:30:00.120Z",
      response_status: 500,
      duration_ms: 84,
      response_body: "database is down",
      error: "the receiver answered HTTP 500",
      redelivery: false,
    },
    {
      attempt: 2,
      at: "2026-11-22T09:30:05.300Z",
      response_status: 200,
      duration_ms: 61,
      response_body: "ok",
      error: null,
      redelivery: false,
    },
  ],
};

const listQuery = z.object({
  state: z.enum(DELIVERY_STATES).optional().meta({
    description:
      "`pending` (not tried yet), `retrying` (tried, another try scheduled), `delivered` (a 2xx), `failed` (retries exhausted, or the address is refused).",
  }),
  invoice_id: z.string().optional().meta({ description: "Only this invoice's deliveries: `invoice_<uuid>` or the bare UUID." }),
  event: z.enum(WEBHOOK_EVENTS).optional(),
  created_after: dateForms.optional().meta(describedAs(invoiceListQueryShape.created_after)),
  created_before: dateForms.optional().meta(describedAs(invoiceListQueryShape.created_before)),
  ...pagingQuery,
});

const deliveryId = z.string().meta({
  description: "The delivery's `webhook_id` (`msg_<uuid>`, the `webhook-id` header it is sent with); the bare UUID is accepted too.",
  example: WEBHOOK_ID_EXAMPLE,
});

const unknownDelivery = problemResponse(
  "No delivery has this id: unknown or malformed ids alike.",
  problem(404, "not_found", "Not found", 'No webhook delivery has the id "msg_nope".'),
);
const otherMerchantsDelivery = problemResponse(
  "The key lacks the webhooks:write scope, or the delivery is another merchant's.",
  problem(403, "insufficient_scope", "This API key may not do that", "The key lacks the webhooks:write scope."),
);

export const deliveryPaths: ZodOpenApiPathsObject = {
  "/webhook-deliveries": {
    get: {
      tags: ["Webhooks"],
      operationId: "listAllWebhookDeliveries",
      summary: "Every webhook delivery (sandbox extension)",
      description:
        "Not in the spec: every webhook the sandbox sent for the key's merchant, newest first (ties by id), paged as `GET /invoices` is, each with every attempt: when, the receiver's HTTP status or the network error, the duration, the first 2 KB of its answer. Needs `invoices:read`.",
      "x-sandbox-extension": true,
      requestParams: { query: listQuery },
      responses: {
        200: {
          description: "One page of deliveries. A page past the end is an empty list.",
          content: json(apiWebhookDeliveryPageSchema, {
            items: [deliveryExample],
            pagination: { current_page: 1, page_size: 20, total_pages: 1, total_records: 1, has_next: false, has_previous: false },
          }),
        },
        401: unauthorized,
        403: forbiddenScope,
        422: problemResponse(
          "A query parameter breaks a rule; `errors[]` names each one.",
          problem(422, "validation_failed", "The query is not valid", "state must be one of pending, retrying, delivered, failed", [
            { pointer: "/state", code: "invalid_value", detail: "must be one of pending, retrying, delivered, failed" },
          ]),
        ),
        500: serverError,
      },
    },
  },
  "/webhook-deliveries/{delivery_id}/redeliver": {
    post: {
      tags: ["Webhooks"],
      operationId: "redeliverWebhook",
      summary: "Send a webhook again (sandbox extension)",
      description:
        "Not in the spec: one attempt now, in any state, with the **same `webhook-id`** (so a receiver that processed it can tell) and a fresh `webhook-timestamp` and signature. It is outside the retry schedule: a delivery still retrying keeps its next attempt and the tries it has left; a 2xx delivers it. Answers once the attempt is made, with the delivery (the attempt says `redelivery: true`). Needs `webhooks:write`; no body.",
      "x-sandbox-extension": true,
      requestParams: { path: z.object({ delivery_id: deliveryId }) },
      responses: {
        202: { description: "The attempt was made; the delivery with it.", content: json(apiWebhookDeliverySchema, deliveryExample) },
        401: unauthorized,
        403: otherMerchantsDelivery,
        404: unknownDelivery,
        500: serverError,
      },
    },
  },
};
