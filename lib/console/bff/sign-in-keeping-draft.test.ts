import { describe, expect, it } from "vitest";
import { signInKeepingDraft } from "./action";

describe("signInKeepingDraft", () => {
  it("sends the draft through sign-in and back to the form", () => {
    const url = signInKeepingDraft("/archive?order_id=ORD-1&order_name=Sweater");
    expect(url).toBe(`/login?next=${encodeURIComponent("/archive?order_id=ORD-1&order_name=Sweater")}&ended=draft`);
  });

  it("leaves behind a draft too long for a request line, so the way back does not fail", () => {
    const url = signInKeepingDraft(`/archive?${new URLSearchParams({ order_name: "é".repeat(2000) })}`);
    expect(url).toBe("/login?next=%2Farchive&ended=1");
  });
});
