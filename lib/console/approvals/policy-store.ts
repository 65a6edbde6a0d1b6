import "server-only";
import { eq } from "drizzle-orm";
import { recordAudit } from "@/lib/console/audit";
import type { SessionUser } from "@/lib/console/auth/session";
import { settings } from "@/lib/console/schema";
import { DEFAULT_TRANSITION_POLICY, policyDifferences, type TransitionPolicy } from "@/lib/contract/transition-policy";
import { transitionPolicySchema } from "@/lib/contract/transition-policy-schema";
import type { Db } from "@/lib/platform/db";
import { log } from "@/lib/platform/observability/log";

const SETTING = "transition_policy";

/**
 * The transition policy in force: the admins' own, kept in console.settings, or the defaults. A stored policy this
 * version cannot read (written by a newer one) falls back to the defaults, which are the stricter choice of none.
 */
export async function readTransitionPolicy(db: Db): Promise<TransitionPolicy> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, SETTING));
  if (!row) return DEFAULT_TRANSITION_POLICY;
  const parsed = transitionPolicySchema.safeParse(safeJson(row.value));
  if (parsed.success) return parsed.data;
  log.warn("The stored transition policy cannot be read: the defaults apply");
  return DEFAULT_TRANSITION_POLICY;
}

/** An admin's new policy, stored for every instance and audited with what differs before and after. */
export async function saveTransitionPolicy(
  db: Db,
  policy: TransitionPolicy,
  actor: Pick<SessionUser, "id" | "email"> | "system",
): Promise<void> {
  const before = await readTransitionPolicy(db);
  const value = JSON.stringify(policy);
  await db.transaction(async (tx) => {
    await tx.insert(settings).values({ key: SETTING, value }).onConflictDoUpdate({ target: settings.key, set: { value } });
    await recordAudit(tx, {
      actor,
      action: "policy.changed",
      target: "policy:transitions",
      detail: { before: policyDifferences(before), after: policyDifferences(policy), policy },
    });
  });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
