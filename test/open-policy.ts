import { INVOICE_STATUSES } from "@/lib/contract/status";
import { POLICY_ROLES, type TransitionPolicy } from "@/lib/contract/transition-policy";

/**
 * A transition policy that lets every role that may ask make any change at once: for tests of what the provider
 * answers (its refusals, its ids), which the default policy would otherwise stop before anything is sent.
 */
export const OPEN_POLICY: TransitionPolicy = {
  targets: Object.fromEntries(
    INVOICE_STATUSES.map((s) => [s, { roles: [...POLICY_ROLES], from: [...INVOICE_STATUSES], approval: "never" }]),
  ) as TransitionPolicy["targets"],
  guarded_from: [],
  bulk_approval_over: 1000,
};

/** Stores OPEN_POLICY in the console's database (call in beforeAll, after the environment is set). */
export async function openTransitionPolicy(): Promise<void> {
  const { getDatabase } = await import("@/lib/platform/db");
  const { saveTransitionPolicy } = await import("@/lib/console/approvals/policy-store");
  await saveTransitionPolicy(await getDatabase(), OPEN_POLICY, "system");
}
