import { describe, expect, it } from "vitest";
import { activityKindLabel } from "./activity";
import { activitySummary } from "./activity-words";

const entry = (action: string, detail: Record<string, unknown>, target = "user:ana@example.com") => ({ action, target, detail });

describe("activitySummary", () => {
  it("says what a wrong password given while signed in was for, and an older entry without it plainly", () => {
    expect(activitySummary(entry("user.password_change_failed", { for: "passkey_removal" }))).toBe(
      "Gave a wrong password to remove a passkey: ana@example.com",
    );
    expect(activitySummary(entry("user.password_change_failed", {}))).toBe("Gave a wrong password: ana@example.com");
  });

  it("names a sign-in by a link in words", () => {
    expect(activitySummary(entry("sign_in", { method: "reset_link" }))).toBe("Signed in with a reset link");
    expect(activitySummary(entry("sign_in", { method: "invitation" }))).toBe("Signed in with an invitation link");
  });

  it("says which role a person had before a change of role, and an older entry without it plainly", () => {
    expect(activitySummary(entry("user.role_changed", { from: "finance", to: "support" }))).toBe(
      "Made ana@example.com support (was finance)",
    );
    expect(activitySummary(entry("user.role_changed", { to: "support" }))).toBe("Made ana@example.com support");
  });

  it("has words for a wrong code given to turn off the app", () => {
    expect(activityKindLabel("two_factor.remove_failed")).toBe("Gave a wrong code to turn off the authenticator app");
  });
});
