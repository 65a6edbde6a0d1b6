import { describe, expect, it } from "vitest";
import { cn } from "./cn";

describe("cn", () => {
  it("lets a caller's utility replace the component's own of the same group", () => {
    expect(cn("h-9 px-3 text-sm", "h-10")).toBe("px-3 text-sm h-10");
    expect(cn("bg-primary text-primary-foreground", "bg-danger")).toBe("text-primary-foreground bg-danger");
  });

  it("keeps utilities of different groups and variants side by side", () => {
    expect(cn("px-3", "py-2", "hover:bg-accent", "bg-card")).toBe("px-3 py-2 hover:bg-accent bg-card");
  });

  it("drops falsy values and flattens conditional objects and arrays", () => {
    const invalid = true;
    expect(cn("border", false && "hidden", null, undefined, { "border-danger": invalid, "border-input": !invalid }, ["rounded-md"])).toBe(
      "border border-danger rounded-md",
    );
  });

  it("knows the design tokens' custom heights are one group with the built-in ones", () => {
    expect(cn("h-control", "h-control-sm")).toBe("h-control-sm");
    expect(cn("h-9", "h-control-lg")).toBe("h-control-lg");
  });

  it("tells a token colour from a font size", () => {
    expect(cn("text-sm text-muted-foreground", "text-danger-text")).toBe("text-sm text-danger-text");
  });
});
