import { describe, expect, it } from "vitest";
import { bulkCancelStartSchema } from "./bulk";
import { REASON_MAX } from "./list-query";

describe("a bulk cancel's reason", () => {
  const issues = (reason: string) => bulkCancelStartSchema.safeParse({ reason, ids: "a" }).error?.issues.map((i) => i.message);

  it("is every reason's rule, said in the bulk's words when empty", () => {
    expect(issues("  ")).toEqual(["Say why these invoices are cancelled: it goes into each one's audit trail."]);
    expect(issues("x".repeat(REASON_MAX + 1))).toEqual([`must be at most ${REASON_MAX} characters`]);
    expect(issues("shop \u202Eclosed")).toEqual([expect.stringMatching(/change the text's direction/)]);
    expect(issues("Shop closed for good")).toBeUndefined();
  });
});
