import { describe, expect, it } from "vitest";
import { Problem } from "@/lib/contract/problem";
import { pointerToField } from "@/lib/contract/problem-to-fields";
import { INVOICE_STATUSES } from "@/lib/contract/status";
import { DEFAULT_TRANSITION_POLICY, POLICY_ROLES, type TransitionPolicy } from "@/lib/contract/transition-policy";
import { policyFromForm } from "./policy-form";

/** The fields a browser posts for a policy: a ticked checkbox sends "on", an unticked one sends nothing. */
function formFields(policy: TransitionPolicy): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const to of INVOICE_STATUSES) {
    const rule = policy.targets[to];
    for (const role of rule.roles) fields[`${to}.roles.${role}`] = "on";
    for (const from of rule.from) fields[`${to}.from.${from}`] = "on";
    fields[`${to}.approval`] = rule.approval;
  }
  for (const from of policy.guarded_from) fields[`guarded_from.${from}`] = "on";
  fields.bulk_approval_over = String(policy.bulk_approval_over);
  return fields;
}

function problemOf(run: () => unknown): Problem {
  try {
    run();
  } catch (error) {
    if (error instanceof Problem) return error;
    throw error;
  }
  throw new Error("expected a Problem");
}

describe("policyFromForm", () => {
  it("reads back the default policy from the fields drawn for it", () => {
    expect(policyFromForm(formFields(DEFAULT_TRANSITION_POLICY))).toEqual(DEFAULT_TRANSITION_POLICY);
  });

  it("reads a changed policy in the contract's order, whatever order the fields came in", () => {
    const fields = formFields(DEFAULT_TRANSITION_POLICY);
    const reversed = Object.fromEntries(Object.entries(fields).reverse());
    reversed["expired.roles.finance"] = "on";
    reversed["expired.from.paid_partial"] = "on";
    reversed["expired.approval"] = "always";
    reversed.bulk_approval_over = " 0 ";
    const policy = policyFromForm(reversed);
    expect(policy.targets.expired).toEqual({ roles: [...POLICY_ROLES], from: ["new", "pending", "paid_partial"], approval: "always" });
    expect(policy.bulk_approval_over).toBe(0);
  });

  it("treats every unticked box as an empty list", () => {
    const fields: Record<string, string> = { bulk_approval_over: "50" };
    for (const to of INVOICE_STATUSES) fields[`${to}.approval`] = "never";
    const policy = policyFromForm(fields);
    for (const to of INVOICE_STATUSES) expect(policy.targets[to]).toEqual({ roles: [], from: [], approval: "never" });
    expect(policy.guarded_from).toEqual([]);
  });

  it.each(["", "abc", "-1", "1.5", "1001", "12345"])("refuses %j as the bulk threshold with a 422 on /bulk_approval_over", (bulk) => {
    const problem = problemOf(() => policyFromForm({ ...formFields(DEFAULT_TRANSITION_POLICY), bulk_approval_over: bulk }));
    expect(problem.status).toBe(422);
    expect(problem.code).toBe("validation_failed");
    expect(problem.errors?.map((e) => e.pointer)).toEqual(["/bulk_approval_over"]);
  });

  it("refuses a missing bulk threshold the same way", () => {
    const { bulk_approval_over: _, ...fields } = formFields(DEFAULT_TRANSITION_POLICY);
    const problem = problemOf(() => policyFromForm(fields));
    expect(problem.status).toBe(422);
    expect(problem.errors?.[0]?.pointer).toBe("/bulk_approval_over");
  });

  it("refuses an unknown approval rule, naming the target's field", () => {
    const problem = problemOf(() => policyFromForm({ ...formFields(DEFAULT_TRANSITION_POLICY), "completed.approval": "sometimes" }));
    expect(problem.status).toBe(422);
    // The form shows this field's error under the Completed row's Approval select.
    expect(pointerToField(problem.errors?.[0]?.pointer)).toBe("targets.completed.approval");
  });
});
