import "server-only";
import type { AskPermit } from "@/lib/console/approvals/may-still-ask";
import { readTransitionPolicy } from "@/lib/console/approvals/policy-store";
import { createApproval, pendingApprovalFor, toApproval } from "@/lib/console/approvals/store";
import { recordAudit } from "@/lib/console/audit";
import type { SessionUser } from "@/lib/console/auth/session";
import { indexChangedInvoice } from "@/lib/console/mirror";
import type { Upstream } from "@/lib/console/upstream/client";
import { type Approval, type Invoice, type InvoiceStatus, isKnownStatus, REASON_MAX } from "@/lib/contract";
import { Problem, toProblem } from "@/lib/contract/problem";
import { hasReceivedCrypto, receivedAmount, receivedSentence, receivedSummary, shortfallSentence } from "@/lib/contract/received";
import { decideTransition, waitingRefusal } from "@/lib/contract/transition-policy";
import type { Db } from "@/lib/platform/db";
import { underInvoiceLease } from "./change-lease";

const STATUS_CHANGE_ACTION = "invoice.status_change";
/** How long a refused request waits for the invoice's current status before it is answered anyway. */
const REFUSAL_LOOKUP_MS = 2_000;

/**
 * The audit target of an invoice: its id as the provider gives it in the invoice (opaque). A provider that
 * accepts several forms of an id in paths still names the invoice one way, so the trail stays one.
 */
export const invoiceAuditTarget = (id: string) => `invoice:${id}`;

/**
 * Support changes an invoice's status. Every attempt lands in the audit log — changed, unchanged or failed —
 * with who, from → to, the reason and what the upstream answered; a failure changes nothing and is rethrown
 * for the person to read.
 */
export async function changeInvoiceStatus(input: {
  db: Db;
  upstream: Upstream;
  user: Pick<SessionUser, "id" | "email">;
  /** As the person gave it: opaque, sent to the provider as it is. */
  id: string;
  status: InvoiceStatus;
  reason: string;
  /** More for the audit entry (a bulk cancel's job id, the approval that allowed it). */
  context?: Record<string, unknown>;
  /** The invoice as just read (the policy's check read it): not asked for again. */
  current?: Invoice;
  /**
   * Runs once the provider has named the invoice, before the change is sent: a bulk job claims the invoice
   * there, so another form of its id is not changed twice. What it throws is rethrown: nothing sent, nothing audited.
   */
  beforeChange?: (current: Invoice) => Promise<void>;
}): Promise<{ invoice: Invoice; from: string | null }> {
  const { db, upstream, user, id, status, reason, context, beforeChange } = input;
  // The invoice's own id once the provider has named it; until then, the one given. Its order id names it in words.
  let target = id;
  let orderId: string | undefined;
  const audit = (detail: Record<string, unknown>) =>
    recordAudit(db, {
      actor: user,
      action: STATUS_CHANGE_ACTION,
      target: invoiceAuditTarget(target),
      detail: { to: status, reason, ...context, ...(orderId ? { order_id: orderId } : {}), ...detail },
    });

  let from: string | null | undefined;
  const failed = async (error: unknown) => {
    const problem = toProblem(error);
    // No answer at all (timeout, connection lost) leaves the outcome unknown: the change may have landed.
    const outcome = from !== undefined && problem.upstreamStatus === null ? "unknown" : "failed";
    await audit({ from: from ?? null, outcome, upstream_status: problem.upstreamStatus ?? null, problem: problem.code });
    return problem;
  };
  let current: Invoice;
  try {
    current = input.current ?? (await upstream.getInvoice(id));
  } catch (error) {
    throw await failed(error);
  }
  target = current.invoice_id;
  orderId = current.order_id ?? undefined;
  await beforeChange?.(current);
  from = current.status;
  let updated: Invoice;
  const sentAt = new Date().toISOString();
  try {
    updated = await upstream.updateInvoiceStatus(id, { status });
  } catch (error) {
    throw await failed(error);
  }
  await audit({ from, outcome: from === updated.status ? "unchanged" : "changed", upstream_status: 200, sent_at: sentAt });
  // Search finds it under its new status at once, not after the next sync.
  await indexChangedInvoice(db, updated);
  return { invoice: updated, from: from ?? null };
}

/**
 * Every attempt lands in the log, one refused for another change of the invoice still being sent too (nothing
 * was read or sent): recorded as `busy` when `error` is that refusal.
 */
export async function recordIfBusy(
  db: Db,
  error: unknown,
  actor: Pick<SessionUser, "id" | "email">,
  invoiceId: string,
  detail: Record<string, unknown>,
): Promise<void> {
  if (!(error instanceof Problem && error.is("change_in_progress"))) return;
  await recordAudit(db, {
    actor,
    action: STATUS_CHANGE_ACTION,
    target: invoiceAuditTarget(invoiceId),
    detail: { ...detail, outcome: "busy" },
  });
}

export type StatusChangeAnswer =
  | { invoice: Invoice; from: string | null; approval?: undefined }
  | { approval: Approval; invoice?: undefined };

/**
 * A person asks for a status change: the transition policy decides (lib/contract/transition-policy.ts). Refused:
 * a 403 `transition_not_allowed` saying who may, recorded. Allowed at once: sent to the provider now. Needing a
 * second person: not sent, but kept as a request for approval (lib/console/approvals), answered as such. The
 * provider knows nothing of the policy: only the final PATCH reaches it. A bulk job asks invoice by invoice
 * the same way (its approval as a whole was for its size).
 */
export async function requestStatusChange(input: {
  db: Db;
  upstream: Upstream;
  user: Pick<SessionUser, "id" | "email" | "role">;
  id: string;
  status: InvoiceStatus;
  reason: string;
  context?: Record<string, unknown>;
  /** As changeInvoiceStatus's: run once the provider has named the invoice, before anything is decided or sent. */
  beforeChange?: (current: Invoice) => Promise<void>;
  /**
   * For a change made later in a person's name (a bulk job's): reads them again under the invoice's lease, just
   * before the decision; not ok, nothing is sent (409 `requester_changed`); ok, their role now decides.
   */
  mayStillAct?: () => Promise<AskPermit>;
}): Promise<StatusChangeAnswer> {
  const { db, upstream, status, reason, beforeChange, mayStillAct, ...rest } = input;
  // Decided and sent under the invoice's lease, on what is read under it. The lease is on the id as given (the
  // console's pages give the provider's own); another form of it takes the own id's lease too, and reads again there.
  try {
    return await underInvoiceLease(db, input.id, async () => {
      const first = await upstream.getInvoice(input.id);
      if (first.invoice_id === input.id) return decideAndSend(first);
      return underInvoiceLease(db, first.invoice_id, async () => decideAndSend(await upstream.getInvoice(first.invoice_id)));
    });
  } catch (error) {
    await recordIfBusy(db, error, input.user, input.id, { to: status, reason, ...input.context });
    throw error;
  }

  async function decideAndSend(current: Invoice): Promise<StatusChangeAnswer> {
    const policy = await readTransitionPolicy(db);
    await beforeChange?.(current);
    const permit = await mayStillAct?.();
    if (permit && !permit.ok) throw Problem.of("requester_changed", { detail: `${permit.reason} Nothing was sent.` });
    const user = permit ? { ...input.user, role: permit.role } : input.user;
    if (current.status === "archived") {
      throw Problem.of("archived_invoice", { detail: "Archived records keep their status; nothing was sent to the provider." });
    }
    const received = hasReceivedCrypto(current);
    const decision = decideTransition(policy, { role: user.role, from: current.status, to: status, received });
    if (!decision.allowed) {
      await recordAudit(db, {
        actor: user,
        action: STATUS_CHANGE_ACTION,
        target: invoiceAuditTarget(current.invoice_id),
        detail: {
          from: current.status,
          to: status,
          reason,
          ...input.context,
          order_id: current.order_id,
          outcome: "refused",
          policy: decision.reason,
          role: user.role,
        },
      });
      throw Problem.of("transition_not_allowed", { detail: `${decision.reason} You are signed in as ${user.role}.` });
    }
    if (decision.approval) {
      const waiting = await pendingApprovalFor(db, current.invoice_id);
      if (waiting) {
        throw Problem.of("approval_waiting", { detail: waitingRefusal(waiting) });
      }
      const row = await createApproval(db, {
        kind: "status_change",
        user,
        invoiceId: current.invoice_id,
        fromStatus: current.status,
        toStatus: status,
        reason,
        why: decision.approval,
        snapshot: invoiceSnapshot(current, received, status),
      });
      return { approval: toApproval(row) };
    }
    return changeInvoiceStatus({ ...rest, db, upstream, user, status, reason, current });
  }
}

/** What an approver needs to see of the invoice as it was when asked. */
function invoiceSnapshot(invoice: Invoice, received: boolean, to: InvoiceStatus): Record<string, unknown> {
  return {
    order_id: invoice.order_id,
    order_name: invoice.order_name,
    fiat_amount: invoice.fiat_amount,
    fiat_currency: invoice.fiat_currency,
    crypto_amount: invoice.crypto_amount,
    currency: invoice.currency,
    amount_received: invoice.payment?.amount_received ?? null,
    // What the approver is shown as received (amount_received, else the transactions' sum): approving checks it still holds.
    received_amount: receivedAmount(invoice),
    rate: invoice.payment?.rate ?? null,
    received,
    received_sentence: receivedSentence(receivedSummary([invoice]), { cancelling: to === "cancelled" }),
    // What a part payment left owing, which completing would call paid.
    shortfall_sentence: to === "completed" ? shortfallSentence(invoice) : null,
  };
}

/**
 * What a person whose role may not change statuses tried to do, for the audit log: the invoice, its status
 * then (when the provider says), and the status and reason they sent (a request's JSON body or an action's
 * form fields). Read leniently: the request is refused anyway, and an unreadable body or an unreachable
 * provider only leaves those fields empty.
 */
export async function describeRefusedStatusChange(input: { body: unknown; id: string; upstream: Upstream }) {
  if (!input.id.trim()) return undefined;
  const { body } = input;
  const sent = (key: string) => {
    const value = body && typeof body === "object" ? (body as Record<string, unknown>)[key] : undefined;
    return typeof value === "string" ? value : null;
  };
  const to = sent("status");
  // The refusal is answered at once; a slow provider only leaves `from` empty.
  const current = await Promise.race([
    input.upstream.getInvoice(input.id).catch(() => null),
    new Promise<null>((resolve) => setTimeout(resolve, REFUSAL_LOOKUP_MS, null)),
  ]);
  const from = current?.status ?? null;
  return {
    action: STATUS_CHANGE_ACTION,
    target: invoiceAuditTarget(current?.invoice_id ?? input.id),
    detail: { from, to: to && isKnownStatus(to) ? to : null, reason: sent("reason")?.slice(0, REASON_MAX) ?? null },
  };
}
