import "server-only";
import { recordAudit } from "@/lib/console/audit";
import type { SessionUser } from "@/lib/console/auth/session";
import { indexChangedInvoice } from "@/lib/console/search";
import type { Upstream } from "@/lib/console/upstream/client";
import { type Invoice, type InvoiceStatus, isKnownStatus, REASON_MAX } from "@/lib/contract";
import { toProblem } from "@/lib/contract/problem";
import type { Db } from "@/lib/platform/db";

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
  /** More for the audit entry (a bulk cancel's job id). */
  context?: Record<string, unknown>;
  /**
   * Runs once the provider has named the invoice, before the change is sent: a bulk job claims the invoice
   * there, so another form of its id is not changed twice. What it throws is rethrown: nothing sent, nothing audited.
   */
  beforeChange?: (current: Invoice) => Promise<void>;
}): Promise<{ invoice: Invoice; from: string | null }> {
  const { db, upstream, user, id, status, reason, context, beforeChange } = input;
  // The invoice's own id once the provider has named it; until then, the one given.
  let target = id;
  const audit = (detail: Record<string, unknown>) =>
    recordAudit(db, {
      actor: user,
      action: STATUS_CHANGE_ACTION,
      target: invoiceAuditTarget(target),
      detail: { to: status, reason, ...context, ...detail },
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
    current = await upstream.getInvoice(id);
  } catch (error) {
    throw await failed(error);
  }
  target = current.invoice_id;
  await beforeChange?.(current);
  from = current.status;
  let updated: Invoice;
  try {
    updated = await upstream.updateInvoiceStatus(id, { status });
  } catch (error) {
    throw await failed(error);
  }
  await audit({ from, outcome: from === updated.status ? "unchanged" : "changed", upstream_status: 200 });
  // Search finds it under its new status at once, not after the next sync.
  await indexChangedInvoice(db, updated);
  return { invoice: updated, from: from ?? null };
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
