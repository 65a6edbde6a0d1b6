import "server-only";
import { and, eq, gt, lt, or } from "drizzle-orm";
import type { SessionUser } from "@/lib/console/auth/session";
import { underInvoiceLease } from "@/lib/console/invoices/change-lease";
import { changeInvoiceStatus, recordIfBusy } from "@/lib/console/invoices/change-status";
import { approvalRequests, bulkJobs } from "@/lib/console/schema";
import type { Upstream } from "@/lib/console/upstream/client";
import { APPROVAL_STATE_LABELS, type Approval, type ApprovalState } from "@/lib/contract/approvals";
import { formatCrypto } from "@/lib/contract/format";
import { compareDecimal, type Decimal, isZero } from "@/lib/contract/money";
import { Problem } from "@/lib/contract/problem";
import { hasReceivedCrypto, receivedAmount } from "@/lib/contract/received";
import { INVOICE_STATUSES, type InvoiceStatus, statusLabel } from "@/lib/contract/status";
import { decideTransition } from "@/lib/contract/transition-policy";
import type { Db } from "@/lib/platform/db";
import { env } from "@/lib/platform/env";
import { mayStillAsk } from "./may-still-ask";
import { readTransitionPolicy } from "./policy-store";
import { type ApprovalRow, auditApproval, endWaitingJob, expireDue, readApproval, toApproval } from "./store";

type Person = Pick<SessionUser, "id" | "email">;
/**
 * How long an approver holds a request while its change is sent: the invoice's lease waited for, then a read and
 * a change at the provider, each with its retry; a crashed instance's hold runs out after it.
 */
const claimMs = () => Math.max(60_000, 15_000 + 4 * env().upstreamTimeoutMs);

/**
 * Approves a request and carries it out, exactly once however many approvers click at once: one conditional UPDATE
 * takes it (pending → approving); the others are told it is no longer waiting. A status change is sent only if the
 * invoice still has the status and the crypto received it had when asked, and only while the person who asked may still ask for it; otherwise
 * the request is closed as `invoice_changed` or `requester_changed` (409). A
 * provider's failure gives the request back (pending), so it can be approved again; the invoice's status then
 * tells whether the first try landed. A bulk job approved as a whole starts (`start`).
 */
export async function approveRequest(input: {
  db: Db;
  upstream: Upstream;
  user: Person;
  id: string;
  reason: string;
  start: (jobId: string) => void;
}): Promise<Approval> {
  const { db, upstream, user, reason } = input;
  const row = await decidable(db, input.id, user);
  const [claimed] = await db
    .update(approvalRequests)
    .set({ state: "approving", claimUntil: new Date(Date.now() + claimMs()) })
    .where(
      and(
        eq(approvalRequests.id, row.id),
        gt(approvalRequests.expiresAt, new Date()),
        or(
          eq(approvalRequests.state, "pending"),
          and(eq(approvalRequests.state, "approving"), lt(approvalRequests.claimUntil, new Date())),
        ),
      ),
    )
    .returning();
  if (!claimed) throw await closed(db, row.id);

  const decided = { decidedBy: user.id, decidedByEmail: user.email, decidedAt: new Date(), decisionReason: reason, claimUntil: null };
  const requester = { id: claimed.requestedBy, email: claimed.requestedByEmail };
  /** Closed without sending anything: the person who asked may no longer ask for it (and a waiting job ends). */
  const requesterChanged = async (why: string) => {
    await db.transaction(async (tx) => {
      const done = await finish(tx, claimed, { ...decided, state: "requester_changed", outcome: why });
      await auditApproval(tx, done, "requester_changed", user, { decision_reason: reason, why_closed: why });
    });
    if (claimed.bulkJobId) await endWaitingJob(db, claimed.bulkJobId, `Not run — ${why}`);
    return Problem.of("requester_changed", { detail: `${why} Nothing was sent; the request is closed.` });
  };
  if (claimed.kind === "bulk_cancel" && claimed.bulkJobId) {
    // Carried out in the name of who asked: only while they still may ask for it (the job checks again each batch).
    const permit = await mayStillAsk(db, requester, "cancelled");
    if (!permit.ok) throw await requesterChanged(permit.reason);
    const done = await finish(db, claimed, { ...decided, state: "approved", outcome: "started" });
    await db.update(bulkJobs).set({ awaitingApproval: null }).where(eq(bulkJobs.id, claimed.bulkJobId));
    await auditApproval(db, done, "approved", user, { decision_reason: reason });
    input.start(claimed.bulkJobId);
    return toApproval(done);
  }

  try {
    const to = claimed.toStatus as InvoiceStatus;
    if (!(INVOICE_STATUSES as readonly string[]).includes(to)) throw Problem.of("validation_failed", { detail: `Unknown status ${to}.` });
    // Checked and sent under the invoice's lease: no other change of it lands between what is read here and the PATCH.
    return await underInvoiceLease(db, claimed.invoiceId ?? "", async () => {
      // Carried out in the name of who asked: only while they still may ask for it.
      const permit = await mayStillAsk(db, requester, to);
      if (!permit.ok) throw await requesterChanged(permit.reason);
      const invoice = await upstream.getInvoice(claimed.invoiceId ?? "");
      const now = invoice.status;
      if (now !== claimed.fromStatus) {
        const done = await finish(db, claimed, { ...decided, state: "invoice_changed", outcome: now });
        await auditApproval(db, done, "invoice_changed", user, { decision_reason: reason, status_now: now });
        throw Problem.of("invoice_changed", {
          detail: `The invoice is ${statusLabel(now)} now; it was ${statusLabel(claimed.fromStatus)} when the change was asked for. Nothing was sent; the request is closed — ask again if the change is still needed.`,
        });
      }
      // What its approver read of the payment must still hold: crypto that came in since, in the same status, changes
      // what approving means (a cancel then owes a refund; "completed" no longer marks an unpaid invoice paid).
      const receivedNow = receivedAmount(invoice);
      const snapshot = claimed.snapshot as { received_amount?: Decimal | null; amount_received?: Decimal | null };
      // What the card showed (older requests kept only the provider's amount_received).
      const receivedAsked = snapshot.received_amount !== undefined ? snapshot.received_amount : snapshot.amount_received;
      if (receivedAsked !== undefined && !sameAmount(receivedNow, receivedAsked)) {
        const done = await finish(db, claimed, { ...decided, state: "invoice_changed", outcome: now });
        await auditApproval(db, done, "invoice_changed", user, {
          decision_reason: reason,
          status_now: now,
          received_asked: receivedAsked,
          received_now: receivedNow,
        });
        const amount = (received: Decimal | null) =>
          received === null || isZero(received) ? "nothing" : `${formatCrypto(received)} ${invoice.currency ?? ""}`.trim();
        throw Problem.of("invoice_changed", {
          detail: `The invoice has received ${amount(receivedNow)}; it had received ${amount(receivedAsked)} when the change was asked for. Nothing was sent; the request is closed — ask again if the change is still needed.`,
        });
      }
      // And as the policy stands now (an admin may have narrowed it since): the whole rule, from this status.
      const decision = decideTransition(await readTransitionPolicy(db), {
        role: permit.role,
        from: now,
        to,
        received: hasReceivedCrypto(invoice),
      });
      if (!decision.allowed) throw await requesterChanged(`${decision.reason} ${claimed.requestedByEmail} is ${permit.role}.`);
      const changed = await changeInvoiceStatus({
        db,
        upstream,
        user,
        id: claimed.invoiceId ?? "",
        status: to,
        reason: claimed.reason,
        current: invoice,
        context: { approval: claimed.id, requested_by: claimed.requestedByEmail, approval_reason: reason },
      });
      const done = await finish(db, claimed, { ...decided, state: "approved", outcome: changed.from === to ? "unchanged" : "changed" });
      await auditApproval(db, done, "approved", user, { decision_reason: reason });
      return toApproval(done);
    });
  } catch (error) {
    if (error instanceof Problem && (error.is("invoice_changed") || error.is("requester_changed"))) throw error;
    await recordIfBusy(db, error, user, claimed.invoiceId ?? "", {
      to: claimed.toStatus,
      reason: claimed.reason,
      approval: claimed.id,
      requested_by: claimed.requestedByEmail,
      approval_reason: reason,
    });
    // Not carried out: back to waiting, for another try.
    await db
      .update(approvalRequests)
      .set({ state: "pending", claimUntil: null })
      .where(and(eq(approvalRequests.id, claimed.id), eq(approvalRequests.state, "approving")));
    throw error;
  }
}

/** Rejects a request (never one's own): it ends, nothing is sent; a bulk job that waited ends with its invoices not run. */
export async function rejectRequest(input: { db: Db; user: Person; id: string; reason: string }): Promise<Approval> {
  const row = await decidable(input.db, input.id, input.user);
  return close(input.db, row, "rejected", input.user, input.reason, `Not run — rejected by ${input.user.email}: ${input.reason}`);
}

/** The person who asked takes the request back. */
export async function withdrawRequest(input: { db: Db; user: Person; id: string; reason: string }): Promise<Approval> {
  await expireDue(input.db);
  const row = await readApproval(input.db, input.id);
  if (!row) throw notFound();
  if (row.requestedBy !== input.user.id) {
    throw Problem.of("forbidden", {
      title: "Only the person who asked can withdraw",
      detail: `${row.requestedByEmail} asked for this change.`,
    });
  }
  return close(input.db, row, "withdrawn", input.user, input.reason, `Not run — withdrawn by ${input.user.email}: ${input.reason}`);
}

/** A request that exists, is not the decider's own, and may still be decided (expired ones are closed first). */
async function decidable(db: Db, id: string, user: Person): Promise<ApprovalRow> {
  await expireDue(db);
  const row = await readApproval(db, id);
  if (!row) throw notFound();
  if (row.requestedBy === user.id) {
    throw Problem.of("own_request", { detail: "A change you asked for needs another person's approval; you may withdraw it instead." });
  }
  return row;
}

async function close(db: Db, row: ApprovalRow, state: "rejected" | "withdrawn", user: Person, reason: string, jobWhy: string) {
  const [done] = await db
    .update(approvalRequests)
    .set({ state, decidedBy: user.id, decidedByEmail: user.email, decidedAt: new Date(), decisionReason: reason })
    .where(and(eq(approvalRequests.id, row.id), eq(approvalRequests.state, "pending")))
    .returning();
  if (!done) throw await closed(db, row.id);
  await auditApproval(db, done, state, user, { decision_reason: reason });
  if (done.bulkJobId) await endWaitingJob(db, done.bulkJobId, jobWhy);
  return toApproval(done);
}

/** Ends a request this approver holds (`approving`); one whose hold ran out and was taken over is not theirs to end. */
async function finish(db: Db, row: ApprovalRow, values: Partial<typeof approvalRequests.$inferInsert>): Promise<ApprovalRow> {
  const [done] = await db
    .update(approvalRequests)
    .set(values)
    .where(and(eq(approvalRequests.id, row.id), eq(approvalRequests.state, "approving")))
    .returning();
  if (!done) throw await closed(db, row.id);
  return done;
}

/** The 409 for a request someone else decided first (or that expired): says how it ended. */
async function closed(db: Db, id: string): Promise<Problem> {
  const row = await readApproval(db, id);
  const state = (row?.state === "approving" ? "pending" : row?.state) as ApprovalState | undefined;
  const by = row?.decidedByEmail ? ` by ${row.decidedByEmail}` : "";
  const detail =
    row?.state === "approving"
      ? "Someone else is approving it right now."
      : `It is ${state ? APPROVAL_STATE_LABELS[state].toLowerCase() : "closed"}${by}${row?.decisionReason ? `: ${row.decisionReason}` : "."}`;
  return Problem.of("approval_closed", { detail: detail.endsWith(".") ? detail : `${detail}.` });
}

const notFound = () => Problem.of("not_found", { detail: "No approval request has this id." });

/** Two amounts the provider named, equal as numbers ("0.50" is "0.5"); none is nothing. */
function sameAmount(a: Decimal | null, b: Decimal | null): boolean {
  return compareDecimal(a ?? "0", b ?? "0") === 0;
}
