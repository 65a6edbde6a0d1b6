import { z } from "zod";
import { INBOX_VERDICTS, type InboxVerdict } from "./inbox-verdicts";
import { INVOICE_STATUSES } from "./status";

/*
 * Webhooks: the simulation request (spec §4.4) and its answer, the console's shape of the sandbox's deliveries
 * extension (normalised from any provider), and the console's own webhook inbox. What our sandbox answers for the
 * deliveries (`apiWebhookDeliveryListSchema`) is the sandbox's: lib/sandbox/wire-schemas.ts.
 */

/** POST /webhooks/simulate (spec §4.4). A strict request: the sandbox and the console's proxy both check it. */
export const webhookSimulationSchema = z.object({
  invoice_id: z
    .string({ error: "is required: the id of the invoice whose webhook to send" })
    .trim()
    .min(1, { error: "is required: the id of the invoice whose webhook to send" })
    .max(500, { error: "must be at most 500 characters" }),
  status: z.enum(INVOICE_STATUSES, { error: `must be one of ${INVOICE_STATUSES.join(", ")}` }),
});
export type WebhookSimulation = z.infer<typeof webhookSimulationSchema>;

/** Its answer: "object with string fields status and message". The sandbox's status is the delivery's state. */
export const webhookSimulationResultSchema = z.object({ status: z.string(), message: z.string() });
export type WebhookSimulationResult = z.infer<typeof webhookSimulationResultSchema>;

/** The console's shape of a delivery, from any provider that offers the extension (odd values → null). */
export const webhookDeliverySchema = z.object({
  webhook_id: z.string().nullable(),
  invoice_id: z.string().nullable(),
  /** The event, such as invoice.status_changed. */
  type: z.string().nullable(),
  url: z.string().nullable(),
  simulated: z.boolean().nullable(),
  status: z.string().nullable(),
  state: z.string().nullable(),
  created_at: z.string().nullable(),
  next_attempt_at: z.string().nullable(),
  attempts: z.array(
    z.object({
      attempt: z.number().nullable(),
      at: z.string().nullable(),
      response_status: z.number().nullable(),
      duration_ms: z.number().nullable(),
      response_body: z.string().nullable(),
      error: z.string().nullable(),
      /** Sent again by hand, outside the retry schedule. */
      redelivery: z.boolean(),
    }),
  ),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

// ---- The console's webhook inbox (POST/GET /api/webhook-inbox) ---------------------------------------

export { INBOX_VERDICT_LABELS, INBOX_VERDICTS, type InboxVerdict } from "./inbox-verdicts";

export const inboxEntrySchema = z.object({
  id: z.string(),
  /** The cursor: entries arrive in increasing `seq`. */
  seq: z.number().int(),
  received_at: z.string(),
  verdict: z.enum(INBOX_VERDICTS),
  reason: z.string(),
  message_id: z.string().nullable(),
  invoice_id: z.string().nullable(),
  event_type: z.string().nullable(),
  headers: z.record(z.string(), z.string()),
  body: z.string(),
  body_bytes: z.number().int(),
  truncated: z.boolean(),
});
export type InboxEntry = z.infer<typeof inboxEntrySchema>;

export const inboxListSchema = z.object({ entries: z.array(inboxEntrySchema), cursor: z.number().int() });
export type InboxList = z.infer<typeof inboxListSchema>;

/** GET /api/webhook-inbox's query: entries after `since` (a seq), for one invoice, of some verdicts, at most `limit`. */
export const inboxQuerySchema = z.object({
  since: z
    .string()
    .trim()
    .regex(/^\d{1,15}$/, { error: "must be a whole number (the cursor of the last answer)" })
    .transform(Number)
    .optional(),
  invoice_id: z.string().trim().min(1).max(500, { error: "must be at most 500 characters" }).optional(),
  /** Only these verdicts, comma-separated ("valid,not_verified"). */
  verdict: z
    .string()
    .optional()
    .transform((value) => [
      ...new Set(
        (value ?? "")
          .split(",")
          .map((v) => v.trim())
          .filter(Boolean),
      ),
    ])
    .pipe(z.array(z.enum(INBOX_VERDICTS, { error: `must be verdicts among ${INBOX_VERDICTS.join(", ")}` }))),
  limit: z
    .string()
    .trim()
    .regex(/^\d{1,3}$/, { error: "must be a whole number from 1 to 100" })
    .transform(Number)
    .pipe(z.number().min(1, { error: "must be at least 1" }).max(100, { error: "must be at most 100" }))
    .default(50),
});
export type InboxQuery = z.output<typeof inboxQuerySchema>;

/** What the Webhooks page's inbox shows: its filter, as the page's address holds it (`inbox_verdict`, `inbox_invoice`). */
export type InboxFilter = { verdicts: InboxVerdict[]; invoiceId: string | null };

/** What POST /api/webhook-inbox answers the sender. */
export const inboxReceiptSchema = z.object({ received: z.boolean(), id: z.string(), verdict: z.enum(INBOX_VERDICTS), reason: z.string() });
export type InboxReceipt = z.infer<typeof inboxReceiptSchema>;
