import { describe, expect, it } from "vitest";
import type { Role } from "./roles";
import type { InvoiceStatus } from "./status";
import { DEFAULT_TRANSITION_POLICY, decideTransition, offersWhileWaiting, policyDifferences, transitionOffers } from "./transition-policy";
import { transitionPolicySchema } from "./transition-policy-schema";

const decide = (role: Role, from: string | null, to: InvoiceStatus, received = false) =>
  decideTransition(DEFAULT_TRANSITION_POLICY, { role, from, to, received });

describe("the default transition policy", () => {
  it.each([
    // role, from, to, received, expected: "now" | "approval" | refusal sentence
    ["support", "new", "cancelled", false, "now"],
    ["support", "pending", "cancelled", true, "approval"],
    ["support", "paid_partial", "cancelled", false, "approval"],
    ["support", "expired", "cancelled", false, "now"],
    ["support", "completed", "cancelled", false, "approval"],
    ["finance", "new", "cancelled", false, "Only support and admin can cancel an invoice."],
    ["support", "new", "expired", false, "now"],
    [
      "support",
      "paid_partial",
      "expired",
      false,
      "An invoice can be marked expired only from New, Pending, Completed and Cancelled; this one is Partly paid.",
    ],
    ["support", "cancelled", "expired", false, "approval"],
    ["finance", "pending", "completed", false, "approval"],
    ["admin", "new", "completed", false, "approval"],
    ["support", "pending", "completed", false, "Only finance and admin can mark an invoice completed."],
    ["admin", "expired", "pending", false, "approval"],
    ["finance", "expired", "new", false, "Only admin can set an invoice back to New."],
    ["viewer", "new", "expired", false, "Only support and admin can mark an invoice expired."],
    [
      "admin",
      "on_hold",
      "cancelled",
      false,
      "An invoice can be cancelled only from New, Pending, Expired, Partly paid, Completed and Cancelled; this one is on_hold.",
    ],
    ["admin", "cancelled", "cancelled", false, "now"],
  ] as const)("%s: %s → %s (received: %s) is %s", (role, from, to, received, expected) => {
    const decision = decide(role, from, to, received);
    if (expected === "now") expect(decision).toEqual({ allowed: true, approval: null });
    else if (expected === "approval") expect(decision).toMatchObject({ allowed: true, approval: expect.any(String) });
    else expect(decision).toEqual({ allowed: false, reason: expected });
  });

  it("offers every other status, each allowed, waiting for approval or refused with who may", () => {
    const offers = transitionOffers(DEFAULT_TRANSITION_POLICY, "support", "pending", false);
    expect(offers.map((o) => [o.to, o.allowed, Boolean(o.approval)])).toEqual([
      ["new", false, false],
      ["completed", false, false],
      ["expired", true, false],
      ["cancelled", true, false],
      ["paid_partial", false, false],
    ]);
    expect(offers[1].refusal).toBe("Only finance and admin can mark an invoice completed.");
  });

  it("while a request waits, refuses up front the changes that would need another, and leaves the others", () => {
    const offers = transitionOffers(DEFAULT_TRANSITION_POLICY, "support", "paid_partial", true);
    const waiting = offersWhileWaiting(offers, { requested_by: "sam@example.com", to_status: "cancelled" });
    const cancel = waiting.find((o) => o.to === "cancelled")!;
    expect(offers.find((o) => o.to === "cancelled")).toMatchObject({ allowed: true, approval: expect.any(String) });
    expect(cancel).toEqual({
      to: "cancelled",
      allowed: false,
      approval: null,
      refusal: expect.stringMatching(/^sam@example\.com already asked to set it to Cancelled\./),
    });
    for (const [i, offer] of offers.entries()) if (!offer.approval) expect(waiting[i]).toEqual(offer);
    expect(offersWhileWaiting(offers, null)).toBe(offers);
  });

  it("is its own schema's shape, and differs from itself in nothing", () => {
    expect(transitionPolicySchema.parse(DEFAULT_TRANSITION_POLICY)).toEqual(DEFAULT_TRANSITION_POLICY);
    expect(policyDifferences(DEFAULT_TRANSITION_POLICY)).toEqual([]);
  });

  it("says in words where a policy differs from the defaults", () => {
    const policy = structuredClone(DEFAULT_TRANSITION_POLICY);
    policy.targets.completed.roles = ["admin"];
    policy.targets.expired.approval = "always";
    policy.bulk_approval_over = 10;
    expect(policyDifferences(policy)).toEqual([
      "Completed: asked by admin",
      "Expired: approval always",
      "Bulk cancels of more than 10 need approval",
    ]);
  });
});
