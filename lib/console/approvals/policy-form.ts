import { Problem } from "@/lib/contract/problem";
import { INVOICE_STATUSES } from "@/lib/contract/status";
import { POLICY_ROLES, type TransitionPolicy } from "@/lib/contract/transition-policy";
import { transitionPolicySchema } from "@/lib/contract/transition-policy-schema";

/**
 * The policy form's fields, one per checkbox (`completed.roles.finance`, `cancelled.from.new`, `guarded_from.completed`),
 * a select per target (`completed.approval`) and `bulk_approval_over`: a form posts a checkbox only when it is
 * ticked, and a server action keeps one value a name.
 */
export function policyFromForm(fields: Record<string, string>): TransitionPolicy {
  const ticked = (name: string) => fields[name] !== undefined;
  const bulk = fields.bulk_approval_over?.trim() ?? "";
  const candidate = {
    targets: Object.fromEntries(
      INVOICE_STATUSES.map((to) => [
        to,
        {
          roles: POLICY_ROLES.filter((r) => ticked(`${to}.roles.${r}`)),
          from: INVOICE_STATUSES.filter((s) => ticked(`${to}.from.${s}`)),
          approval: fields[`${to}.approval`] ?? "",
        },
      ]),
    ),
    guarded_from: INVOICE_STATUSES.filter((s) => ticked(`guarded_from.${s}`)),
    bulk_approval_over: /^\d{1,4}$/.test(bulk) ? Number.parseInt(bulk, 10) : Number.NaN,
  };
  const parsed = transitionPolicySchema.safeParse(candidate);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue.path.at(0) === "bulk_approval_over" ? "bulk_approval_over" : issue.path.join(".");
    throw Problem.of("validation_failed", {
      detail: field === "bulk_approval_over" ? "A whole number from 0 to 1000." : `${field}: ${issue.message}`,
      errors: [
        {
          pointer: `/${field}`,
          code: "invalid",
          detail: field === "bulk_approval_over" ? "must be a whole number from 0 to 1000" : issue.message,
        },
      ],
    });
  }
  return parsed.data;
}
