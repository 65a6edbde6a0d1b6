import { describe, expect, it } from "vitest";
import { sinceAdded } from "./added-person";

describe("sinceAdded", () => {
  const added = { email: "ana@example.com", role: "support" };
  it("keeps the first answer while it holds", () => {
    expect(sinceAdded(added, [{ email: "ana@example.com", role: "support", disabled: false }])).toBeNull();
    expect(sinceAdded(undefined, [])).toBeNull();
  });

  it("follows a later role change and disabling", () => {
    expect(sinceAdded(added, [{ email: "ana@example.com", role: "finance", disabled: false }])).toBe(
      "ana@example.com was added as support; now finance.",
    );
    expect(sinceAdded(added, [{ email: "ana@example.com", role: "finance", disabled: true }])).toBe(
      "ana@example.com was added as support; now finance and disabled: their invitation works once they are enabled again.",
    );
  });
});
