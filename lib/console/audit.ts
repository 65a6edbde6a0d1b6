import "server-only";
import { asc, eq } from "drizzle-orm";
import type { SessionUser } from "@/lib/console/auth/session";
import { auditLog } from "@/lib/console/schema";
import type { Db } from "@/lib/platform/db";
import { storable } from "@/lib/platform/db/storable";
import { currentRequestId } from "@/lib/platform/server-lifecycle";

export type AuditEntry = typeof auditLog.$inferSelect;

/**
 * One line in the console's audit log: who did what to which target, with the details that matter, and the
 * request it came from (`request_id`, as in the answer's X-Request-Id and the log lines), when there is one.
 */
export async function recordAudit(
  db: Db,
  entry: { actor: Pick<SessionUser, "id" | "email"> | "system"; action: string; target: string; detail?: Record<string, unknown> },
): Promise<void> {
  const actor = entry.actor === "system" ? { id: null, email: "system" } : entry.actor;
  await db.insert(auditLog).values({
    actorId: actor.id,
    actorEmail: actor.email,
    action: entry.action,
    target: storable(entry.target),
    detail: storable(withRequestId(entry.detail ?? {})),
  });
}

function withRequestId(detail: Record<string, unknown>): Record<string, unknown> {
  const id = currentRequestId();
  return id && !("request_id" in detail) ? { ...detail, request_id: id } : detail;
}

export async function auditTrail(db: Db, target: string): Promise<AuditEntry[]> {
  return db.select().from(auditLog).where(eq(auditLog.target, target)).orderBy(asc(auditLog.seq));
}
