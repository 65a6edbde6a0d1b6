import "server-only";
import { recordAudit } from "@/lib/console/audit";
import { forbidden } from "@/lib/console/auth/errors";
import type { SessionUser } from "@/lib/console/auth/session";
import type { Problem } from "@/lib/contract/problem";
import type { Permission } from "@/lib/contract/roles";
import { getDatabase } from "@/lib/platform/db";

/** What a refused change attempted, for the audit log; undefined when it names no target. */
export type RefusedAttempt = { action: string; target: string; detail: Record<string, unknown> } | undefined;

/**
 * The 403 for a person whose role lacks `permission`, the same for a route (`bffRoute`) and an action
 * (`guardedAction`): a change whose refusal is itself worth an audit entry records what was attempted first.
 */
export async function refusal(user: SessionUser, permission: Permission, attempt?: () => Promise<RefusedAttempt>): Promise<Problem> {
  const attempted = await attempt?.();
  if (attempted) {
    await recordAudit(await getDatabase(), {
      actor: user,
      action: attempted.action,
      target: attempted.target,
      detail: { ...attempted.detail, outcome: "refused", permission, role: user.role },
    });
  }
  return forbidden(permission, user);
}
