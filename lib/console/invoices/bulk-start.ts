import "server-only";
import { randomUUID } from "node:crypto";
import { readTransitionPolicy } from "@/lib/console/approvals/policy-store";
import { createApproval, toApproval } from "@/lib/console/approvals/store";
import { recordAudit } from "@/lib/console/audit";
import type { SessionUser } from "@/lib/console/auth/session";
import type { Approval } from "@/lib/contract/approvals";
import { formatCount } from "@/lib/contract/format";
import { Problem } from "@/lib/contract/problem";
import { bulkNeedsApproval, whoMayTransition } from "@/lib/contract/transition-policy";
import type { Db } from "@/lib/platform/db";
import { bulkJobAuditTarget, createBulkCancel } from "./bulk-cancel";

/**
 * A person starts a bulk cancel: refused at once when the policy gives cancelling to other roles; a job larger
 * than the policy's threshold waits as one request for approval (and starts when approved, `approveRequest`);
 * otherwise it starts now (`start`). Each invoice is still decided by the policy as the job reaches it.
 */
export async function startBulkCancel(
  db: Db,
  user: Pick<SessionUser, "id" | "email" | "role">,
  ids: string[],
  reason: string,
  start: (jobId: string) => void,
): Promise<{ jobId: string; approval: Approval | null }> {
  const policy = await readTransitionPolicy(db);
  if (!(policy.targets.cancelled.roles as readonly string[]).includes(user.role)) {
    throw Problem.of("transition_not_allowed", { detail: `${whoMayTransition(policy, "cancelled")} You are signed in as ${user.role}.` });
  }
  const count = new Set(ids.map((id) => id.trim()).filter(Boolean)).size;
  if (!bulkNeedsApproval(policy, count)) {
    const jobId = await createBulkCancel(db, user, ids, reason);
    // Each invoice's change is recorded as the job reaches it; this is the person's decision to make them all.
    await recordAudit(db, { actor: user, action: "bulk_cancel.started", target: bulkJobAuditTarget(jobId), detail: { count, reason } });
    start(jobId);
    return { jobId, approval: null };
  }
  // The job exists waiting for its request before anyone could start it; the request follows with that id.
  const approvalId = randomUUID();
  const jobId = await createBulkCancel(db, user, ids, reason, approvalId);
  const row = await createApproval(db, {
    id: approvalId,
    kind: "bulk_cancel",
    user,
    bulkJobId: jobId,
    fromStatus: null,
    toStatus: "cancelled",
    reason,
    why: `A bulk cancel of more than ${formatCount(policy.bulk_approval_over)} invoices needs a second person's approval.`,
    snapshot: { count },
  });
  return { jobId, approval: toApproval(row) };
}
