import { describe, expect, it } from "vitest";
import { comparedToInvoiced, rateChange } from "./rate-change";

describe("comparedToInvoiced", () => {
  it("says more, less, or the same as invoiced", () => {
    expect(comparedToInvoiced("up")).toBe("more than invoiced");
    expect(comparedToInvoiced("down")).toBe("less than invoiced");
    expect(comparedToInvoiced("flat")).toBe("the same as invoiced");
  });

  it("reads a rate's change from the previous one", () => {
    expect(rateChange("110", "100")).toMatchObject({ direction: "up" });
  });
});
