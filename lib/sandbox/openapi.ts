import { z } from "zod";
import { createDocument, type ZodOpenApiResponsesObject } from "zod-openapi";
import { ALLOWED_ERROR_PERCENT_DEFAULT, archivedInvoiceRequestSchema, CREATED_AT_EARLIEST } from "../contract/archived-request";
import { invoiceListQueryShape } from "../contract/list-query-schema";
import { webhookSimulationSchema } from "../contract/webhooks";
import { deliveryExample, deliveryPaths } from "./openapi-deliveries";
import { DESCRIPTION } from "./openapi-description";
import { archivedExample, invoiceExample } from "./openapi-examples";
import {
  badBody,
  dateForms,
  describedAs,
  forbiddenScope,
  invoiceId,
  json,
  notFound,
  otherMerchant,
  pagingQuery,
  problem,
  problemResponse,
  serverError,
  unauthorized,
  withCommonAnswers,
  withoutSafeIntegerBounds,
} from "./openapi-parts";
import {
  apiCurrencyListSchema,
  apiInvoiceListSchema,
  apiInvoiceSchema,
  apiRatesSchema,
  apiSimulationResultSchema,
  apiStatusUpdateSchema,
  apiWebhookDeliveryListSchema,
  ratesQuerySchema,
} from "./wire-schemas";

/*
 * The sandbox's API as an OpenAPI 3.1 document, generated from zod schemas (zod-openapi): the request schemas
 * the sandbox validates with (lib/contract, shared with the console, which checks the same before sending) and the
 * answers it gives (./wire-schemas.ts), never written twice. Isomorphic and free of
 * I/O, so the sandbox serves it (/sandbox/api/v1/openapi.json) and the console's reference page renders it
 * without either importing the other. ARCHITECTURE.md §3's decisions are stated where they apply.
 */

export const OPENAPI_PATH = "/openapi.json";

/** GET /invoices's query as the server reads it: page numbers as integers, bounds as a date or a date-time. */
const listQuery = z.object({
  ...invoiceListQueryShape,
  created_after: dateForms.optional().meta(describedAs(invoiceListQueryShape.created_after)),
  created_before: dateForms.optional().meta(describedAs(invoiceListQueryShape.created_before)),
  ...pagingQuery,
});

/** GET /rates's `at`, in the forms the server accepts. */
const ratesQuery = z.object({ at: dateForms.optional().meta(describedAs(ratesQuerySchema.shape.at)) });

const rateLimitHeaders = {
  "RateLimit-Policy": z.string().meta({
    description: 'The rate limit policy, IETF draft syntax: `"default";q=60;w=60` (60 requests a minute per key).',
    example: '"default";q=60;w=60',
  }),
  RateLimit: z.string().meta({
    description: 'What is left of the current window: `"default";r=<left>;t=<seconds until it resets>`.',
    example: '"default";r=42;t=17',
  }),
  "Retry-After": z.string().meta({ description: "With a 429: seconds to wait before the next request.", example: "17" }),
};

const listResponses: ZodOpenApiResponsesObject = {
  200: {
    description:
      "One page of invoices, `created_at desc` by default, ties broken by id so pages never overlap. A page past the end is an empty list.",
    content: json(apiInvoiceListSchema, {
      items: [invoiceExample],
      pagination: { current_page: 1, page_size: 20, total_pages: 121, total_records: 2_413, has_next: true, has_previous: false },
    }),
  },
  401: unauthorized,
  403: forbiddenScope,
  422: problemResponse(
    "A query parameter breaks a rule; `errors[]` names each one.",
    problem(422, "validation_failed", "The query is not valid", "page_size must be at most 100", [
      { pointer: "/page_size", code: "too_big", detail: "must be at most 100" },
    ]),
  ),
  500: serverError,
};

let cached: ReturnType<typeof createDocument> | undefined;

/** The OpenAPI 3.1 document of the sandbox's API (`/sandbox/api/v1` relative to the console's address). */
export function openApiDocument(): ReturnType<typeof createDocument> {
  return (cached ??= withoutSafeIntegerBounds(
    createDocument({
      openapi: "3.1.0",
      info: { title: "Invoice Console sandbox: invoicing API", version: "1.0.0", description: DESCRIPTION },
      servers: [{ url: "/sandbox/api/v1", description: "The sandbox, on this console" }],
      security: [{ ApiKey: [] }],
      tags: [
        { name: "Invoices", description: "List, read and change invoices." },
        { name: "Archive", description: "Record historical invoices." },
        { name: "Webhooks", description: "Send a test webhook, and read every delivery and attempt." },
        { name: "Reference", description: "Currencies, rates and this document." },
      ],
      paths: withCommonAnswers({
        "/invoices": {
          get: {
            tags: ["Invoices"],
            operationId: "listInvoices",
            summary: "List invoices",
            description: "Filter by status, currency and creation time; sort by any of four fields; page through the result.",
            requestParams: { query: listQuery },
            responses: listResponses,
          },
        },
        "/invoices/{invoice_id}": {
          get: {
            tags: ["Invoices"],
            operationId: "getInvoice",
            summary: "Get one invoice",
            description: "The full invoice with its payment details and blockchain transactions.",
            requestParams: { path: z.object({ invoice_id: invoiceId }) },
            responses: {
              200: { description: "The invoice.", content: json(apiInvoiceSchema, invoiceExample) },
              401: unauthorized,
              403: otherMerchant,
              404: notFound,
              500: serverError,
            },
          },
          patch: {
            tags: ["Invoices"],
            operationId: "updateInvoiceStatus",
            summary: "Change an invoice's status",
            description:
              "Any of the six statuses, from any status; the status it already has is a 200 that changes nothing. A real change queues the status webhook. An archived invoice cannot be changed (422).",
            requestParams: { path: z.object({ invoice_id: invoiceId }) },
            requestBody: { required: true, content: json(apiStatusUpdateSchema, { status: "cancelled" }) },
            responses: {
              200: { description: "The updated invoice.", content: json(apiInvoiceSchema, { ...invoiceExample, status: "cancelled" }) },
              400: badBody,
              401: unauthorized,
              403: forbiddenScope,
              404: notFound,
              422: problemResponse(
                "The status is not one of the six, the body has another field than `status` (named by its pointer), or the invoice is archived.",
                problem(
                  422,
                  "archived_invoice",
                  "An archived invoice cannot be changed",
                  "This invoice is an archived record (created with POST /archived); its status stays archived.",
                  [
                    {
                      pointer: "/status",
                      code: "archived_invoice",
                      detail: "cannot be changed: the invoice is an archived record, kept as it was recorded",
                    },
                  ],
                ),
              ),
              500: serverError,
            },
          },
        },
        "/archived": {
          post: {
            tags: ["Archive"],
            operationId: "createArchivedInvoice",
            summary: "Record an archived invoice",
            description: `Creates an invoice in \`archived\` status for record keeping.

- \`order_id\` is required and unique among the merchant's invoices (a duplicate is a 422 naming \`/order_id\`; of two simultaneous requests with one order id, one creates the invoice).
- Exactly one of \`fiat_amount\` and \`crypto_amount\` (both or neither: a 422 naming both), each a JSON number ≥ 0 read with exactly the digits sent; fiat in cents at most, crypto to the currency's own decimals (\`decimals\` in GET /currencies: ETH 18, SOL 9, BTC 8, USDT 6). At most 9,999,999,999,999,999.99 EUR and 20 crypto digits before the point (the ledger's columns); more is a 422 saying the limit. The other amount is derived with decimal arithmetic at the simulated market's rate of the UTC minute of the invoice's \`created_at\` (\`GET /rates?at=\` answers it), recorded as \`payment.rate\`: EUR = crypto × rate rounded half up to the cent, crypto = EUR ÷ rate rounded half up to the currency's quote decimals, min(\`decimals\`, 8) — as seeded invoices were priced, so archiving an exported invoice again with the amount it was priced in and its \`created_at\` derives the same other amount; \`priced_in\` says which amount was given. Every amount in an answer is a JSON number with exactly the stored digits.
- \`fiat_currency\`: only \`EUR\` (the default). \`currency\`: a code from \`GET /currencies\`.
- \`allowed_error_percent\`: an integer 0–100, **default ${ALLOWED_ERROR_PERCENT_DEFAULT}**.
- \`callback_url\`: an absolute http(s) URL. Archived invoices never send webhooks.
- \`created_at\`: \`YYYY-MM-DD\` (midnight UTC) or an ISO 8601 date-time with an offset, from ${CREATED_AT_EARLIEST} and not in the future (a minute of clock skew is tolerated); stored and returned in UTC. Default: now.
- Any other field is a 422 naming it.`,
            requestBody: {
              required: true,
              content: {
                "application/json": {
                  schema: archivedInvoiceRequestSchema,
                  examples: {
                    eur: {
                      summary: "An amount in EUR",
                      value: {
                        order_id: "LEGACY-2025-0042",
                        order_name: "Workshop Ticket: Winter Navigation",
                        currency: "BTC",
                        fiat_amount: 49.9,
                        created_at: "2025-01-15",
                      },
                    },
                    crypto: {
                      summary: "An amount in crypto, with a time and offset",
                      value: {
                        order_id: "LEGACY-2025-0043",
                        currency: "ETH",
                        crypto_amount: 0.25,
                        allowed_error_percent: 2,
                        created_at: "2025-01-15T14:30:00+01:00",
                      },
                    },
                  },
                },
              },
            },
            responses: {
              201: { description: "The archived invoice, in full.", content: json(apiInvoiceSchema, archivedExample) },
              400: badBody,
              401: unauthorized,
              403: forbiddenScope,
              422: problemResponse(
                "A field breaks a rule; `errors[]` names each one. A duplicate order id is `duplicate_order_id` on `/order_id`.",
                problem(
                  422,
                  "validation_failed",
                  "This order is already recorded",
                  'order_id is already recorded: another invoice of this merchant has the order id "LEGACY-2025-0042"',
                  [
                    {
                      pointer: "/order_id",
                      code: "duplicate_order_id",
                      detail: 'is already recorded: another invoice of this merchant has the order id "LEGACY-2025-0042"',
                    },
                  ],
                ),
              ),
              500: serverError,
            },
          },
        },
        "/invoices/{invoice_id}/webhook-deliveries": {
          get: {
            tags: ["Webhooks"],
            operationId: "listWebhookDeliveries",
            summary: "The invoice's webhook deliveries (sandbox extension)",
            description:
              "Not in the spec: this sandbox's own log of every webhook it sent for the invoice (real and simulated), each with every attempt: when, the receiver's HTTP status, the latency, the first 2 KB of its answer, or the reason nothing was sent. `GET /webhook-deliveries` lists every invoice's.",
            requestParams: { path: z.object({ invoice_id: invoiceId }) },
            responses: {
              200: {
                description: "Every delivery with its attempts.",
                content: json(apiWebhookDeliveryListSchema, {
                  deliveries: [deliveryExample],
                }),
              },
              401: unauthorized,
              403: otherMerchant,
              404: notFound,
              500: serverError,
            },
          },
        },
        ...deliveryPaths,
        "/webhooks/simulate": {
          post: {
            tags: ["Webhooks"],
            operationId: "simulateWebhook",
            summary: "Send a test status webhook",
            description:
              'Sends the webhook the invoice would send on a change to `status`, through the same outbox, signature and retries as a real one, without changing the invoice; its payload says `"simulated": true`. Answers once the first attempt was made: `status` is the delivery\'s state (`delivered`, `pending` — to be retried — or `failed`), `message` says where it went and what the receiver answered.',
            requestBody: {
              required: true,
              content: json(webhookSimulationSchema, { invoice_id: "invoice_0190a1d2-1111-7000-8000-000000000001", status: "completed" }),
            },
            responses: {
              200: {
                description: "The webhook was attempted.",
                content: json(apiSimulationResultSchema, {
                  status: "delivered",
                  message: "Webhook msg_… sent to https://shop.example.com/api/payments/webhook: the receiver answered HTTP 200.",
                }),
              },
              400: badBody,
              401: unauthorized,
              403: forbiddenScope,
              404: notFound,
              422: problemResponse(
                "A field is missing or invalid, the invoice has no callback URL, or it is archived (`archived_invoice`: archived invoices never send webhooks).",
                problem(
                  422,
                  "validation_failed",
                  "The body is not valid",
                  "status must be one of new, pending, completed, expired, cancelled, paid_partial",
                  [
                    {
                      pointer: "/status",
                      code: "invalid_value",
                      detail: "must be one of new, pending, completed, expired, cancelled, paid_partial",
                    },
                  ],
                ),
              ),
              500: serverError,
            },
          },
        },
        "/currencies": {
          get: {
            tags: ["Reference"],
            operationId: "listCurrencies",
            summary: "Supported cryptocurrencies",
            description: "Every currency an invoice may be in, with its network and the decimals its amounts carry.",
            responses: {
              200: {
                description: "Every currency invoices may be in.",
                content: json(apiCurrencyListSchema, {
                  currencies: [
                    { code: "BTC", name: "Bitcoin", network: "bitcoin", decimals: 8 },
                    { code: "ETH", name: "Ether", network: "ethereum", decimals: 18 },
                  ],
                }),
              },
              401: unauthorized,
              500: serverError,
            },
          },
        },
        "/rates": {
          get: {
            tags: ["Reference"],
            operationId: "getRates",
            summary: "Current EUR rates (simulated), or those of a past minute",
            description: `EUR per one unit of every supported currency, each a JSON number with at most 8 decimal places. **Simulated**: the sandbox has no live market; rates follow a deterministic walk that is the same within one UTC minute and moves minute by minute. Limited per API key: 60 requests a minute by default (\`SANDBOX_RATES_LIMIT\`), in fixed one-minute windows.

**\`at\` (a sandbox extension, not in the spec):** the rates of the UTC minute of that instant — the rates an invoice created then is priced at, and \`POST /archived\` derives at — answered as \`{"rates": {…}, "at": "2025-03-01T11:34:00.000Z"}\`, \`at\` being the start of that minute (UTC, milliseconds). \`YYYY-MM-DD\` (midnight UTC) or an ISO 8601 date-time with an offset (\`+01:00\` or \`Z\`), from ${CREATED_AT_EARLIEST}, not in the future (a minute of clock skew tolerated): the bounds of an archived invoice's \`created_at\`. Any other value is a 422 naming \`/at\` (not counted against the limit); a request with \`at\` counts like one without. Without \`at\` the answer is \`{"rates": {…}}\`, the current minute's.`,
            requestParams: { query: ratesQuery },
            responses: {
              200: {
                description: "The rates, EUR per unit by currency code, with the key's rate-limit state.",
                headers: z.object({ "RateLimit-Policy": rateLimitHeaders["RateLimit-Policy"], RateLimit: rateLimitHeaders.RateLimit }),
                content: json(apiRatesSchema, {
                  rates: { BTC: 61234.5, ETH: 3180.12, USDT: 0.9203, USDC: 0.9198, LTC: 78.41, SOL: 142.7, DOGE: 0.146 },
                }),
              },
              401: unauthorized,
              403: problemResponse(
                "The key lacks the rates:read scope.",
                problem(403, "insufficient_scope", "This API key may not do that", "The key lacks the rates:read scope."),
              ),
              422: problemResponse(
                "`at` is not a date or a date-time with an offset, is before the earliest date or is in the future; `errors[]` names `/at`.",
                problem(422, "validation_failed", "The query is not valid", "at must not be in the future", [
                  { pointer: "/at", code: "custom", detail: "must not be in the future" },
                ]),
              ),
              429: {
                ...problemResponse(
                  "The key used up this minute's requests. Wait `Retry-After` seconds.",
                  problem(429, "rate_limited", "Too many requests", "This key may call GET /rates 60 times a minute. Try again in 17 s."),
                ),
                headers: z.object(rateLimitHeaders),
              },
              500: serverError,
            },
          },
        },
        [OPENAPI_PATH]: {
          get: {
            tags: ["Reference"],
            operationId: "getOpenApiDocument",
            summary: "This document",
            description: "The OpenAPI 3.1 document of this API. Needs no key.",
            security: [],
            responses: {
              200: { description: "The document.", content: { "application/json": { schema: z.looseObject({ openapi: z.string() }) } } },
            },
          },
        },
      }),
      components: {
        securitySchemes: {
          ApiKey: {
            type: "apiKey",
            in: "header",
            name: "Api-key",
            description: "Your API key; the sandbox's test keys are listed in the console's README.",
          },
        },
        headers: rateLimitHeaders,
      },
    }),
  ));
}
