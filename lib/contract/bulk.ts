import { z } from "zod";
import { reasonSchema } from "./approvals";

/**
 * What became of one invoice of a bulk cancel: null while it waits. `duplicate`: another form of an id already
 * in the job named the same invoice, changed once under that one; `not_run`: the job stopped before it, because
 * its person could no longer make the change (disabled, deleted, another role); `awaiting_approval`: the policy gives
 * this one invoice's cancel a second person (it received crypto), so it became a request of its own.
 */
export const BULK_OUTCOMES = ["cancelled", "refused", "failed", "duplicate", "not_run", "awaiting_approval"] as const;
export type BulkOutcome = (typeof BULK_OUTCOMES)[number];

export const bulkItemSchema = z.object({
  invoice_id: z.string(),
  outcome: z.enum(BULK_OUTCOMES).nullable(),
  /** Why it was refused, failed or not run, in a sentence; or a note ("It was already cancelled."). */
  detail: z.string().nullable(),
  /** Its status before the change, once changed. */
  from_status: z.string().nullable(),
  /** Its order id, as the console's index knows it (null when it has none or is not indexed yet). */
  order_id: z.string().nullable(),
});
export type BulkItem = z.infer<typeof bulkItemSchema>;

/** GET /api/invoices/bulk/{id}: a bulk cancel and each invoice's outcome. */
export const bulkJobSchema = z.object({
  id: z.string(),
  reason: z.string(),
  created_by: z.string(),
  created_at: z.string(),
  /** Null while invoices wait. */
  finished_at: z.string().nullable(),
  total: z.number().int(),
  counts: z.object({
    cancelled: z.number().int(),
    refused: z.number().int(),
    failed: z.number().int(),
    duplicate: z.number().int(),
    not_run: z.number().int(),
    awaiting_approval: z.number().int(),
    waiting: z.number().int(),
  }),
  /** The request the whole job waits for before it starts (the policy's bulk threshold), while it waits. */
  approval: z.object({ id: z.string(), why: z.string() }).nullable(),
  items: z.array(bulkItemSchema),
});
export type BulkJob = z.infer<typeof bulkJobSchema>;

/** GET /api/invoices/bulk: the person's latest bulk cancels, newest first. */
export const bulkJobListSchema = z.object({
  jobs: z.array(
    z.object({ id: z.string(), reason: z.string(), created_at: z.string(), finished_at: z.string().nullable(), total: z.number().int() }),
  ),
});

/** What starts a bulk cancel: its one reason (every reason's rule, in the bulk's words when empty) and its invoices. */
export const bulkCancelStartSchema = z.object({
  reason: z
    .string()
    .trim()
    .min(1, { error: "Say why these invoices are cancelled: it goes into each one's audit trail." })
    .pipe(reasonSchema),
  /** The selected invoices' ids, separated by commas or new lines… */
  ids: z.string().optional(),
  /** …or every invoice of a view: the list's query string. */
  view: z.string().optional(),
});
