import { z } from "zod";
import { hasBidiControl, NO_BIDI_CONTROLS } from "./bidi";
import { REASON_MAX } from "./list-query";

/** Where an approval request stands: waiting, or how it ended. */
export const APPROVAL_STATES = ["pending", "approved", "rejected", "withdrawn", "expired", "invoice_changed", "requester_changed"] as const;
export type ApprovalState = (typeof APPROVAL_STATES)[number];

export const APPROVAL_STATE_LABELS: Record<ApprovalState, string> = {
  pending: "Waiting for approval",
  approved: "Approved",
  rejected: "Rejected",
  withdrawn: "Withdrawn",
  expired: "Expired",
  invoice_changed: "Closed: the invoice changed",
  requester_changed: "Closed: the requester may no longer ask",
};

export const APPROVAL_KINDS = ["status_change", "bulk_cancel"] as const;
export type ApprovalKind = (typeof APPROVAL_KINDS)[number];

/** Every manual change and every decision says why: 1–500 characters, kept in the audit log. */
export const reasonSchema = z
  .string({ error: "is required: say why" })
  .trim()
  .min(1, { error: "is required: say why" })
  .max(REASON_MAX, { error: `must be at most ${REASON_MAX} characters` })
  // Kept as evidence and shown beside names: a character that reorders what follows it would change what it says.
  .refine((reason) => !hasBidiControl(reason), { error: NO_BIDI_CONTROLS });

/** POST /api/approvals/{id}/approve, /reject, /withdraw. */
export const approvalDecisionSchema = z.object({ reason: reasonSchema });

/** GET /api/approvals?state= */
export const approvalListQuerySchema = z.object({
  state: z.enum(APPROVAL_STATES, { error: `must be one of ${APPROVAL_STATES.join(", ")}` }).default("pending"),
});

export const approvalSchema = z.object({
  id: z.string(),
  kind: z.enum(APPROVAL_KINDS),
  state: z.enum(APPROVAL_STATES),
  invoice_id: z.string().nullable(),
  bulk_job_id: z.string().nullable(),
  /** The invoice's status when asked (a status change). */
  from_status: z.string().nullable(),
  to_status: z.string(),
  reason: z.string(),
  /** Why the policy asked for a second person. */
  why: z.string(),
  /** What it looked like when asked: order id and name, amounts, crypto received (a sentence), how many invoices. */
  snapshot: z.record(z.string(), z.unknown()),
  requested_by: z.string(),
  requested_at: z.string(),
  expires_at: z.string(),
  decided_by: z.string().nullable(),
  decided_at: z.string().nullable(),
  decision_reason: z.string().nullable(),
  outcome: z.string().nullable(),
});
export type Approval = z.infer<typeof approvalSchema>;
