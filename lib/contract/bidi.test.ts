import { describe, expect, it } from "vitest";
import { hasBidiControl } from "./bidi";
import { savedViewNameSchema } from "./saved-view-schema";

describe("bidirectional controls", () => {
  it("are found wherever they are, and plain right-to-left text is not one", () => {
    for (const c of ["\u202E", "\u202A", "\u2066", "\u2069", "\u200F", "\u061C"]) expect(hasBidiControl(`a${c}b`)).toBe(true);
    expect(hasBidiControl("שלום Ana")).toBe(false);
    expect(hasBidiControl("Café ☕")).toBe(false);
  });

  it("are refused in a saved view's name, which a viewer may publish to everyone", () => {
    const refused = savedViewNameSchema.safeParse("Paid\u202Ediap");
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0].message).toMatch(/change the text's direction/);
    expect(savedViewNameSchema.parse("Открытые счета")).toBe("Открытые счета");
  });
});
