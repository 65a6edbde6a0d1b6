import "server-only";
import { asc, eq } from "drizzle-orm";
import type { SessionUser } from "@/lib/auth/session";
import type { Db } from "@/lib/db";
import { auditLog } from "@/lib/db/schema";

export type AuditEntry = typeof auditLog.$inferSelect;

/** One line in the console's audit log: who did what to which target, with the details that matter. */
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
    detail: JSON.parse(storable(JSON.stringify(entry.detail ?? {}))),
  });
}

/**
 * PostgreSQL's text and jsonb cannot hold U+0000, and what is audited includes what people typed or sent
 * (a reason, an id): the character is kept visible as U+FFFD instead of failing the whole request.
 */
function storable(text: string): string {
  return text.replaceAll("\u0000", "\uFFFD").replaceAll("\\u0000", "\\uFFFD");
}

export async function auditTrail(db: Db, target: string): Promise<AuditEntry[]> {
  return db.select().from(auditLog).where(eq(auditLog.target, target)).orderBy(asc(auditLog.at));
}
