import "server-only";
import { eq } from "drizzle-orm";
import { users } from "@/lib/console/schema";
import { can, isRole, PERMISSION_LABELS, type Permission, type Role } from "@/lib/contract/roles";
import type { InvoiceStatus } from "@/lib/contract/status";
import { whoMayTransition } from "@/lib/contract/transition-policy";
import type { Db } from "@/lib/platform/db";
import { readTransitionPolicy } from "./policy-store";

export type AskPermit = { ok: true; role: Role } | { ok: false; reason: string };

const ASK_PERMISSION: Permission = "invoices:change_status";

/**
 * Whether someone who asked for a change may still ask for it now: they exist, are enabled, their role may change
 * statuses, and the policy lets that role set `to`. Read when the change is carried out (a request approved later, a
 * job's next batch), so disabling someone, taking their role or changing the policy is never outrun by what they
 * asked for before.
 */
export async function mayStillAsk(db: Db, person: { id: string; email: string }, to: InvoiceStatus): Promise<AskPermit> {
  const [row] = await db.select({ role: users.role, banned: users.banned }).from(users).where(eq(users.id, person.id));
  const who = person.email;
  if (!row) return { ok: false, reason: `${who} no longer exists.` };
  if (row.banned) return { ok: false, reason: `${who} was disabled.` };
  if (!isRole(row.role) || !can(row.role, ASK_PERMISSION)) {
    return { ok: false, reason: `${who}'s role (${row.role}) may no longer ${PERMISSION_LABELS[ASK_PERMISSION]}.` };
  }
  const policy = await readTransitionPolicy(db);
  if (!(policy.targets[to].roles as readonly string[]).includes(row.role)) {
    return { ok: false, reason: `${whoMayTransition(policy, to)} ${who} is ${row.role} now.` };
  }
  return { ok: true, role: row.role };
}
