import { z } from "zod";
import { INVOICE_STATUSES, type InvoiceStatus } from "./status";
import { APPROVAL_RULES, POLICY_ROLES } from "./transition-policy";

// The stored policy's schema, apart from lib/contract/transition-policy.ts: the settings form and the invoice
// page read the policy in the browser, and only the server checks one (building a schema keeps zod in a bundle).

const statuses = z.array(z.enum(INVOICE_STATUSES)).transform((list) => INVOICE_STATUSES.filter((s) => list.includes(s)));

export const targetRuleSchema = z.object({
  /** Who may ask for this status. */
  roles: z.array(z.enum(POLICY_ROLES)).transform((list) => POLICY_ROLES.filter((r) => list.includes(r))),
  /** The statuses an invoice may have for this change; `guarded_from` statuses are always allowed, with approval. */
  from: statuses,
  approval: z.enum(APPROVAL_RULES),
});
export type TargetRule = z.output<typeof targetRuleSchema>;

export const transitionPolicySchema = z.object({
  targets: z.object(
    Object.fromEntries(INVOICE_STATUSES.map((s) => [s, targetRuleSchema])) as Record<InvoiceStatus, typeof targetRuleSchema>,
  ),
  /** Any change from these statuses needs approval, by the target's roles. */
  guarded_from: statuses,
  /** A bulk cancel of more invoices than this waits for one approval for the whole job. */
  bulk_approval_over: z.number().int().min(0).max(1000),
});
export type TransitionPolicy = z.output<typeof transitionPolicySchema>;
