import { z } from "zod";
import { archivedCreatedAtSchema, CREATED_AT_EARLIEST } from "@/lib/contract/archived-request";
import { DELIVERY_STATES, WEBHOOK_EVENTS } from "@/lib/contract/deliveries";
import { paginationSchema } from "@/lib/contract/invoice";
import { checkCreatedRange, invoiceListQueryShape } from "@/lib/contract/list-query-schema";
import { ALL_INVOICE_STATUSES } from "@/lib/contract/status";
import { invoiceStatusUpdateSchema } from "@/lib/contract/status-change";
import { INVOICE_ID } from "./ids";

/*
 * The sandbox's wire shapes (ARCHITECTURE.md §3, §7): what our own provider answers and the requests only it reads.
 * They bind the sandbox, never the console, which reads any provider through its own shapes in lib/contract/schemas.ts
 * (normalised by lib/console/upstream/normalise.ts). The OpenAPI document (lib/sandbox/openapi.ts) is generated
 * from these and from the request shapes the sandbox shares with the console. Isomorphic and free of I/O, like the
 * OpenAPI document: no "server-only".
 */

const isoDateTime = z.iso.datetime({ offset: true });
const amount = z.number().finite();

export const apiTransactionSchema = z.object({
  tx_hash: z.string(),
  amount: amount,
  confirmations: z.number().int(),
  block_height: z.number().int().nullable(),
  seen_at: isoDateTime,
  explorer_url: z.string().nullable(),
});

export const apiInvoiceSchema = z
  .object({
    invoice_id: z.string().min(1).meta({ description: "`invoice_<uuid v7>`, time-ordered." }),
    order_id: z.string(),
    order_name: z.string().nullable(),
    status: z.enum(ALL_INVOICE_STATUSES).meta({ description: "The spec's six, or `archived` (made only by POST /archived)." }),
    fiat_amount: amount.meta({ description: "Amount in EUR." }),
    fiat_currency: z.string().meta({ description: "Always EUR." }),
    crypto_amount: amount.meta({ description: "Amount in `currency`." }),
    currency: z.string().meta({ description: "A code from GET /currencies." }),
    allowed_error_percent: z.int().min(0).max(100).meta({ description: "Allowed payment error, percent (0–100)." }),
    callback_url: z.string().nullable(),
    created_at: isoDateTime,
    updated_at: isoDateTime,
    expires_at: isoDateTime.nullable(),
    priced_in: z.enum(["fiat", "crypto"]).optional().meta({
      description:
        "Archived invoices only (a sandbox extension): which amount was given — `fiat` or `crypto`. The other was derived at `payment.rate`, the simulated market's rate of the UTC minute of the invoice's `created_at`, by one rule: EUR = crypto × rate rounded half up to the cent; crypto = EUR ÷ rate rounded half up to the currency's quote decimals, min(`decimals`, 8) (ETH 8, SOL 8, BTC 8, USDT 6). So archiving an invoice again with the amount it was priced in and its `created_at` derives exactly the same other amount.",
    }),
    payment: z
      .object({
        /** Null on an archived invoice: it records a payment made elsewhere, with the rate it was priced at. */
        address: z.string().nullable(),
        network: z.string().nullable(),
        amount_due: amount,
        amount_received: amount.nullable(),
        rate: amount.nullable(),
        paid_at: isoDateTime.nullable(),
        confirmations: z.number().int().nullable(),
        confirmations_required: z.number().int().nullable(),
        transactions: z.array(apiTransactionSchema),
      })
      .nullable()
      .meta({
        description:
          "Where the customer pays and what the chain has shown; `rate` is EUR per unit when the invoice was priced (in the sandbox: the simulated market's rate of the UTC minute of `created_at`, 8 decimal places at most; `GET /rates?at=` answers it). An archived invoice has a payment with its rate but no address. Null when the invoice has none.",
      }),
  })
  .meta({ id: "Invoice", description: "An invoice with its payment details and blockchain transactions." });

export const apiInvoiceListSchema = z
  .object({ items: z.array(apiInvoiceSchema), pagination: paginationSchema })
  .meta({ id: "InvoiceList" });

/**
 * A problem as the sandbox answers it (ARCHITECTURE.md §3): every answer has all five fields; a validation failure
 * names each broken rule in `errors[]` by a JSON Pointer. The console reads any provider's more loosely
 * (lib/contract/schemas.ts).
 */
export const apiProblemSchema = z
  .looseObject({
    type: z.string(),
    title: z.string(),
    status: z.int().min(400).max(599),
    detail: z.string(),
    code: z.string(),
    errors: z.array(z.object({ pointer: z.string(), code: z.string(), detail: z.string() })).optional(),
  })
  .meta({
    id: "Problem",
    description:
      "RFC 9457 problem details with a stable `code`; validation failures name each broken rule in `errors[]` by a JSON Pointer.",
  });

/** POST /webhooks/simulate's answer as the sandbox gives it: `status` is the delivery's state after the first attempt. */
export const apiSimulationResultSchema = z
  .object({ status: z.enum(["delivered", "pending", "failed"]), message: z.string() })
  .meta({ id: "WebhookSimulationResult" });

/** GET /currencies as the sandbox answers it (ARCHITECTURE.md §3). */
export const apiCurrencyListSchema = z
  .object({
    currencies: z.array(z.object({ code: z.string(), name: z.string(), network: z.string(), decimals: z.number().int() })),
  })
  .meta({ id: "CurrencyList" });

/** GET /rates as the sandbox answers it: EUR per one unit, from a simulated market (ARCHITECTURE.md §3). */
export const apiRatesSchema = z
  .object({
    rates: z.record(z.string(), z.number().positive()).meta({
      description: "EUR per one unit of each supported currency, by code. Simulated: the sandbox has no live market.",
      example: { BTC: 61234.5, ETH: 3180.12 },
    }),
    at: isoDateTime.optional().meta({
      description:
        "Only when the request asked for `at` (a sandbox extension): the start of the UTC minute whose rates these are, as a UTC instant with milliseconds (`2025-03-01T12:34:00.000Z`).",
    }),
  })
  .meta({ id: "Rates" });

export type ApiInvoice = z.infer<typeof apiInvoiceSchema>;
export type ApiInvoiceList = z.infer<typeof apiInvoiceListSchema>;

/**
 * GET /rates's query (a sandbox extension): `at`, an instant in the simulated market's history, read as an
 * archived invoice's `created_at` is (the same bounds), so that the rate an archived invoice was priced at can
 * be asked for before it is recorded. Without it: the current rates.
 */
export const ratesQuerySchema = z.object({
  at: archivedCreatedAtSchema.optional().meta({
    description: `Sandbox extension: the rates of the UTC minute of this instant instead of now. \`YYYY-MM-DD\` (midnight UTC) or an ISO 8601 date-time with an offset; from ${CREATED_AT_EARLIEST}, not in the future (a minute of clock skew tolerated).`,
    examples: ["2025-03-01", "2025-03-01T12:34:56+01:00"],
  }),
});
export type RatesQuery = z.output<typeof ratesQuerySchema>;

/**
 * PATCH /invoices/{id}'s body as the sandbox reads it: the status and nothing else, so a field it would ignore
 * (an amount, a typo) is a 422 naming it, as POST /archived answers.
 */
export const apiStatusUpdateSchema = z.strictObject(invoiceStatusUpdateSchema.shape, {
  error: (issue) =>
    issue.code === "unrecognized_keys" ? `is not a field PATCH can change: only status (${issue.keys.join(", ")})` : undefined,
});

export { DELIVERY_STATES, type DeliveryState, WEBHOOK_EVENTS } from "@/lib/contract/deliveries";

/** One attempt at a delivery (sandbox extension, ARCHITECTURE.md §3). */
export const apiWebhookAttemptSchema = z.object({
  /** 1, 2, … in the order they were made, redeliveries included. */
  attempt: z.int().min(1),
  at: isoDateTime,
  /** The receiver's HTTP status; null when there was no answer (see `error`). */
  response_status: z.int().min(100).max(599).nullable(),
  duration_ms: z.int().min(0),
  /** The first 2 KB of the receiver's answer. */
  response_body: z.string().nullable(),
  /** Why the attempt did not count as delivered: a non-2xx answer or the network error. */
  error: z.string().nullable(),
  /** Made by POST /webhook-deliveries/{id}/redeliver, outside the retry schedule. */
  redelivery: z.boolean(),
});

export const apiWebhookDeliverySchema = z
  .object({
    /** `msg_<uuid v7>`: the `webhook-id` header of every attempt, and the delivery's id in paths. */
    webhook_id: z.string(),
    invoice_id: z.string(),
    type: z.enum(WEBHOOK_EVENTS),
    url: z.string(),
    simulated: z.boolean(),
    /** The status the webhook announced. */
    status: z.enum(ALL_INVOICE_STATUSES).nullable(),
    state: z.enum(DELIVERY_STATES),
    created_at: isoDateTime,
    /** When the next scheduled attempt is due: only while pending or retrying. */
    next_attempt_at: isoDateTime.nullable(),
    attempts: z.array(apiWebhookAttemptSchema),
  })
  .meta({ id: "WebhookDelivery" });

export const apiWebhookDeliveryListSchema = z.object({ deliveries: z.array(apiWebhookDeliverySchema) });
export type ApiWebhookDelivery = z.infer<typeof apiWebhookDeliverySchema>;
export type ApiWebhookDeliveryList = z.infer<typeof apiWebhookDeliveryListSchema>;

/** GET /webhook-deliveries (sandbox extension): a page of the merchant's deliveries, as the invoice list pages. */
export const apiWebhookDeliveryPageSchema = z
  .object({ items: z.array(apiWebhookDeliverySchema), pagination: paginationSchema })
  .meta({ id: "WebhookDeliveryList" });
export type ApiWebhookDeliveryPage = z.infer<typeof apiWebhookDeliveryPageSchema>;

/** GET /webhook-deliveries's query: the list's paging and date bounds, and what to filter on. */
export const deliveryListQuerySchema = z
  .object({
    state: z.enum(DELIVERY_STATES, { error: `must be one of ${DELIVERY_STATES.join(", ")}` }).optional(),
    invoice_id: z
      .string()
      .trim()
      .regex(INVOICE_ID, {
        error: "must be an invoice id: invoice_<uuid> or the bare UUID",
      })
      .optional(),
    event: z.enum(WEBHOOK_EVENTS, { error: `must be one of ${WEBHOOK_EVENTS.join(", ")}` }).optional(),
    created_after: invoiceListQueryShape.created_after,
    created_before: invoiceListQueryShape.created_before,
    page: invoiceListQueryShape.page,
    page_size: invoiceListQueryShape.page_size,
  })
  .check(checkCreatedRange);
export type DeliveryListQuery = z.output<typeof deliveryListQuerySchema>;
