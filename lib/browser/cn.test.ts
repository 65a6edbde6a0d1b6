import { describe, expect, it } from "vitest";
import { cn } from "./cn";

describe("cn", () => {
  it("joins classes in order and drops falsy values, flattening conditional objects and arrays", () => {
    const invalid = true;
    expect(cn("border", false && "hidden", null, undefined, { "border-danger": invalid, "border-input": !invalid }, ["rounded-md"])).toBe(
      "border border-danger rounded-md",
    );
  });

  it("settles no conflicts: a component offers a prop for what a caller may change", () => {
    expect(cn("h-control", "h-control-sm")).toBe("h-control h-control-sm");
  });
});
