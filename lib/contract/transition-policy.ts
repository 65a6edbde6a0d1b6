import { ROLE_LABELS, type Role } from "./roles";
import { INVOICE_STATUSES, type InvoiceStatus, STATUS_LABELS, statusLabel } from "./status";
import type { TransitionPolicy } from "./transition-policy-schema";

/**
 * Who may set which status, from which, and which changes need a second person (ARCHITECTURE.md §4): one
 * definition, read by the UI to offer only what is allowed and enforced by the server on every path (route,
 * action, no-script form, bulk job). Admins change it on the settings page; it is stored in the console's
 * database as this shape.
 */

/** When a change needs another person's approval: never, only when the invoice has received crypto, always. */
export const APPROVAL_RULES = ["never", "when_received", "always"] as const;
export type ApprovalRule = (typeof APPROVAL_RULES)[number];

/** The roles a policy may name: those that may ask for status changes at all (`invoices:change_status`). */
export const POLICY_ROLES = ["finance", "support", "admin"] as const satisfies readonly Role[];

export type { TargetRule, TransitionPolicy } from "./transition-policy-schema";

const ANY = [...INVOICE_STATUSES];

export const DEFAULT_TRANSITION_POLICY: TransitionPolicy = {
  targets: {
    cancelled: { roles: ["support", "admin"], from: ["new", "pending", "expired", "paid_partial"], approval: "when_received" },
    expired: { roles: ["support", "admin"], from: ["new", "pending"], approval: "never" },
    completed: { roles: ["finance", "admin"], from: ANY, approval: "always" },
    new: { roles: ["admin"], from: ANY, approval: "always" },
    pending: { roles: ["admin"], from: ANY, approval: "always" },
    paid_partial: { roles: ["admin"], from: ANY, approval: "always" },
  },
  guarded_from: ["completed", "cancelled"],
  bulk_approval_over: 50,
};

/** "mark an invoice completed": what asking for each status is, in words. */
export const TRANSITION_VERBS: Record<InvoiceStatus, string> = {
  cancelled: "cancel an invoice",
  expired: "mark an invoice expired",
  completed: "mark an invoice completed",
  new: "set an invoice back to New",
  pending: "set an invoice to Pending",
  paid_partial: "mark an invoice partly paid",
};

/** "marked completed": the same, as done to an invoice. */
const TRANSITION_DONE: Record<InvoiceStatus, string> = {
  cancelled: "cancelled",
  expired: "marked expired",
  completed: "marked completed",
  new: "set back to New",
  pending: "set to Pending",
  paid_partial: "marked partly paid",
};

export type TransitionInput = {
  role: Role;
  /** The invoice's status now, as the provider says (null or unknown values are not in any `from` list). */
  from: string | null;
  to: InvoiceStatus;
  /** Whether the invoice has received crypto (lib/contract/received.ts). */
  received: boolean;
};

/** What the policy says of one change: refused (and why), or allowed, at once or after approval (and why). */
export type TransitionDecision =
  | { allowed: false; reason: string }
  | { allowed: true; approval: null }
  | { allowed: true; approval: string };

const list = (words: string[]) => (words.length > 1 ? `${words.slice(0, -1).join(", ")} and ${words.at(-1)}` : (words[0] ?? "nobody"));

/** "Only finance and admin can mark an invoice completed." */
export function whoMayTransition(policy: TransitionPolicy, to: InvoiceStatus): string {
  const roles = policy.targets[to].roles;
  if (roles.length === 0) return `Nobody can ${TRANSITION_VERBS[to]} under the current policy.`;
  return `Only ${list(roles.map((r) => ROLE_LABELS[r].toLowerCase()))} can ${TRANSITION_VERBS[to]}.`;
}

export function decideTransition(policy: TransitionPolicy, input: TransitionInput): TransitionDecision {
  const { role, from, to, received } = input;
  const rule = policy.targets[to];
  if (!(rule.roles as readonly string[]).includes(role)) return { allowed: false, reason: whoMayTransition(policy, to) };
  // Setting the status it has changes nothing (a bulk cancel meeting one already cancelled).
  if (from === to) return { allowed: true, approval: null };
  const guarded = from !== null && (policy.guarded_from as readonly string[]).includes(from);
  if (guarded) return { allowed: true, approval: `A change from ${statusLabel(from)} needs a second person's approval.` };
  if (from === null || !(rule.from as readonly string[]).includes(from)) {
    const froms = [...rule.from, ...policy.guarded_from.filter((s) => !rule.from.includes(s))].map((s) => statusLabel(s));
    return {
      allowed: false,
      reason: `An invoice can be ${TRANSITION_DONE[to]} only from ${list(froms)}; this one is ${statusLabel(from)}.`,
    };
  }
  if (rule.approval === "always") return { allowed: true, approval: `To ${TRANSITION_VERBS[to]} needs a second person's approval.` };
  // Partly paid means crypto arrived, whatever the payment details say.
  if (rule.approval === "when_received" && (received || from === "paid_partial")) {
    return { allowed: true, approval: "This invoice has received crypto: the change needs a second person's approval." };
  }
  return { allowed: true, approval: null };
}

/** One status the UI offers: allowed (at once, or with why it needs approval) or not, with who may. */
export type TransitionOffer = { to: InvoiceStatus; allowed: boolean; approval: string | null; refusal: string | null };

/** Every other status, as the policy answers this role for this invoice: what the status controls offer. */
export function transitionOffers(policy: TransitionPolicy, role: Role, from: string | null, received: boolean): TransitionOffer[] {
  return INVOICE_STATUSES.filter((to) => to !== from).map((to) => {
    const decision = decideTransition(policy, { role, from, to, received });
    return decision.allowed
      ? { to, allowed: true, approval: decision.approval, refusal: null }
      : { to, allowed: false, approval: null, refusal: decision.reason };
  });
}

/** Why a change that needs approval cannot be asked while another request on the invoice waits (one at a time). */
export function waitingRefusal(waiting: { requested_by: string; to_status: string }): string {
  return `${waiting.requested_by} already asked to set it to ${statusLabel(waiting.to_status)}. Another change that needs approval can be asked once that request is approved, rejected, withdrawn or expires.`;
}

/** The offers while a request waits on the invoice: those that need approval are refused up front, saying why. */
export function offersWhileWaiting(
  offers: TransitionOffer[],
  waiting: { requested_by: string; to_status: string } | null,
): TransitionOffer[] {
  if (!waiting) return offers;
  return offers.map((offer) => (offer.approval ? { ...offer, allowed: false, approval: null, refusal: waitingRefusal(waiting) } : offer));
}

/** Whether a bulk cancel of `count` invoices needs one approval for the whole job. */
export function bulkNeedsApproval(policy: TransitionPolicy, count: number): boolean {
  return count > policy.bulk_approval_over;
}

/** The roles that may ask for anything at all under the policy: who sees status controls. */
export function mayAskAnything(policy: TransitionPolicy, role: Role): boolean {
  return INVOICE_STATUSES.some((to) => (policy.targets[to].roles as readonly string[]).includes(role));
}

/** Where a policy differs from the defaults, in words, for the settings page and the audit entry. */
export function policyDifferences(policy: TransitionPolicy, base: TransitionPolicy = DEFAULT_TRANSITION_POLICY): string[] {
  const out: string[] = [];
  const same = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);
  for (const to of INVOICE_STATUSES) {
    const [now, was] = [policy.targets[to], base.targets[to]];
    const name = STATUS_LABELS[to];
    if (!same(now.roles, was.roles)) out.push(`${name}: asked by ${list(now.roles.map((r) => ROLE_LABELS[r].toLowerCase()))}`);
    if (!same(now.from, was.from)) out.push(`${name}: from ${list(now.from.map((s) => statusLabel(s)))}`);
    if (now.approval !== was.approval) out.push(`${name}: approval ${APPROVAL_LABELS[now.approval].toLowerCase()}`);
  }
  if (!same(policy.guarded_from, base.guarded_from))
    out.push(`Changes from ${list(policy.guarded_from.map((s) => statusLabel(s)))} always need approval`);
  if (policy.bulk_approval_over !== base.bulk_approval_over)
    out.push(`Bulk cancels of more than ${policy.bulk_approval_over} need approval`);
  return out;
}

export const APPROVAL_LABELS: Record<ApprovalRule, string> = {
  never: "Not needed",
  when_received: "When crypto was received",
  always: "Always",
};
