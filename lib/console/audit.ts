import "server-only";
import { asc, eq } from "drizzle-orm";
import type { SessionUser } from "@/lib/console/auth/session";
import { auditLog } from "@/lib/console/schema";
import type { Db } from "@/lib/platform/db";
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

/** A UTF-16 surrogate without its pair: what cutting text in the middle of an emoji, or a crafted body, leaves. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * What is audited includes what people typed or sent (a reason, an id), and PostgreSQL's text and jsonb hold
 * neither U+0000 nor half of a surrogate pair. Such characters are kept visible as U+FFFD: the audit entry
 * of a change that happened must never fail to be written.
 */
export function storable<T>(value: T): T {
  if (typeof value === "string") return value.replaceAll("\u0000", "\uFFFD").replace(LONE_SURROGATE, "\uFFFD") as T;
  if (Array.isArray(value)) return value.map(storable) as T;
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, v]) => [storable(key), storable(v)])) as T;
  }
  return value;
}

export async function auditTrail(db: Db, target: string): Promise<AuditEntry[]> {
  return db.select().from(auditLog).where(eq(auditLog.target, target)).orderBy(asc(auditLog.seq));
}
