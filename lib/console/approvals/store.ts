import "server-only";
import { and, count, desc, eq, lt, or, sql } from "drizzle-orm";
import { recordAudit } from "@/lib/console/audit";
import type { SessionUser } from "@/lib/console/auth/session";
import { approvalRequests, bulkJobItems, bulkJobs } from "@/lib/console/schema";
import type { Approval, ApprovalKind, ApprovalState } from "@/lib/contract/approvals";
import type { Db } from "@/lib/platform/db";
import { env } from "@/lib/platform/env";

export type ApprovalRow = typeof approvalRequests.$inferSelect;
type Person = Pick<SessionUser, "id" | "email">;

/** The audit action of each step of a request: asked, approved, rejected, withdrawn, expired, closed. */
export const APPROVAL_AUDIT = {
  requested: "approval.requested",
  approved: "approval.approved",
  rejected: "approval.rejected",
  withdrawn: "approval.withdrawn",
  expired: "approval.expired",
  invoice_changed: "approval.invoice_changed",
  requester_changed: "approval.requester_changed",
} as const;

/** Where a request's entries are filed: under its invoice (its timeline shows them), or under its bulk job. */
export function approvalAuditTarget(row: Pick<ApprovalRow, "invoiceId" | "bulkJobId">): string {
  return row.invoiceId ? `invoice:${row.invoiceId}` : `bulk_job:${row.bulkJobId}`;
}

export async function auditApproval(
  db: Db,
  row: ApprovalRow,
  step: keyof typeof APPROVAL_AUDIT,
  actor: Person | "system",
  detail: Record<string, unknown> = {},
) {
  await recordAudit(db, {
    actor,
    action: APPROVAL_AUDIT[step],
    target: approvalAuditTarget(row),
    detail: {
      approval: row.id,
      kind: row.kind,
      // The activity log names an invoice by its order id, as people do.
      ...(typeof row.snapshot?.order_id === "string" ? { order_id: row.snapshot.order_id } : {}),
      from: row.fromStatus,
      to: row.toStatus,
      reason: row.reason,
      requested_by: row.requestedByEmail,
      ...detail,
    },
  });
}

/** A new request, waiting for someone else to approve it; recorded in the audit log. */
export async function createApproval(
  db: Db,
  input: {
    /** Chosen beforehand when something must name the request before it exists (a bulk job waiting for it). */
    id?: string;
    kind: ApprovalKind;
    user: Person;
    invoiceId?: string;
    bulkJobId?: string;
    fromStatus: string | null;
    toStatus: string;
    reason: string;
    why: string;
    snapshot: Record<string, unknown>;
  },
): Promise<ApprovalRow> {
  const expiresAt = new Date(Date.now() + env().approvalTtlHours * 3_600_000);
  const [row] = await db
    .insert(approvalRequests)
    .values({
      ...(input.id ? { id: input.id } : {}),
      kind: input.kind,
      invoiceId: input.invoiceId ?? null,
      bulkJobId: input.bulkJobId ?? null,
      fromStatus: input.fromStatus,
      toStatus: input.toStatus,
      reason: input.reason,
      why: input.why,
      snapshot: input.snapshot,
      requestedBy: input.user.id,
      requestedByEmail: input.user.email,
      expiresAt,
    })
    .returning();
  await auditApproval(db, row, "requested", input.user, { why: input.why, expires_at: expiresAt.toISOString() });
  return row;
}

/**
 * Requests whose time ran out are closed as expired, each recorded, by whoever looks first (a list, a decision):
 * one conditional UPDATE, so two instances looking at once record each expiry once. A bulk job that waited for one
 * ends with its invoices not run.
 */
export async function expireDue(db: Db): Promise<void> {
  const expired = await db
    .update(approvalRequests)
    .set({ state: "expired", decidedAt: new Date() })
    .where(
      and(
        lt(approvalRequests.expiresAt, new Date()),
        // Also one an approver's instance took and never finished (it stopped mid-way): its claim ran out.
        or(
          eq(approvalRequests.state, "pending"),
          and(eq(approvalRequests.state, "approving"), lt(approvalRequests.claimUntil, new Date())),
        ),
      ),
    )
    .returning();
  for (const row of expired) {
    await auditApproval(db, row, "expired", "system");
    if (row.bulkJobId) await endWaitingJob(db, row.bulkJobId, "Not run — the request for approval expired.");
  }
}

/** A bulk job whose approval was refused, withdrawn or expired: it ends, its invoices not run, saying why. */
export async function endWaitingJob(db: Db, jobId: string, why: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .update(bulkJobItems)
      .set({ outcome: "not_run", detail: why, updatedAt: new Date() })
      .where(and(eq(bulkJobItems.jobId, jobId), sql`${bulkJobItems.outcome} is null`));
    await tx.update(bulkJobs).set({ finishedAt: new Date(), awaitingApproval: null }).where(eq(bulkJobs.id, jobId));
  });
}

export async function readApproval(db: Db, id: string): Promise<ApprovalRow | null> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return null;
  const [row] = await db.select().from(approvalRequests).where(eq(approvalRequests.id, id));
  return row ?? null;
}

/** The requests in one state, newest first (at most `limit`). `approving` is shown as still pending. */
export async function listApprovals(db: Db, state: ApprovalState, limit = 200): Promise<Approval[]> {
  await expireDue(db);
  const states = state === "pending" ? ["pending", "approving"] : [state];
  const rows = await db
    .select()
    .from(approvalRequests)
    .where(sql`${approvalRequests.state} in ${states}`)
    .orderBy(desc(approvalRequests.requestedAt))
    .limit(limit);
  return rows.map(toApproval);
}

/** How many requests wait: the count in the navigation of those who may approve. */
export async function countPendingApprovals(db: Db): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(approvalRequests)
    .where(and(sql`${approvalRequests.state} in ('pending', 'approving')`, sql`${approvalRequests.expiresAt} > now()`));
  return row?.n ?? 0;
}

/** The request waiting on an invoice, if any: its page says "Waiting for approval". */
export async function pendingApprovalFor(db: Db, invoiceId: string): Promise<Approval | null> {
  const [row] = await db
    .select()
    .from(approvalRequests)
    .where(
      and(
        eq(approvalRequests.invoiceId, invoiceId),
        sql`${approvalRequests.state} in ('pending', 'approving')`,
        sql`${approvalRequests.expiresAt} > now()`,
      ),
    )
    .orderBy(desc(approvalRequests.requestedAt))
    .limit(1);
  return row ? toApproval(row) : null;
}

export function toApproval(row: ApprovalRow): Approval {
  return {
    id: row.id,
    kind: row.kind as ApprovalKind,
    state: (row.state === "approving" ? "pending" : row.state) as ApprovalState,
    invoice_id: row.invoiceId,
    bulk_job_id: row.bulkJobId,
    from_status: row.fromStatus,
    to_status: row.toStatus,
    reason: row.reason,
    why: row.why,
    snapshot: row.snapshot,
    requested_by: row.requestedByEmail,
    requested_at: row.requestedAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
    decided_by: row.decidedByEmail,
    decided_at: row.decidedAt?.toISOString() ?? null,
    decision_reason: row.decisionReason,
    outcome: row.outcome,
  };
}
