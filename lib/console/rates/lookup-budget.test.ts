import { describe, expect, it } from "vitest";
import { createLookupBudget } from "./lookup-budget";

describe("createLookupBudget", () => {
  it("lets each person a share and everyone together a share a minute, then refuses with when to try again", () => {
    let t = Date.parse("2026-11-26T10:00:50Z");
    const budget = createLookupBudget({ perPerson: 2, shared: 3, now: () => t });
    budget.take("ana");
    budget.take("ana");
    expect(() => budget.take("ana")).toThrow(expect.objectContaining({ status: 429, headers: { "retry-after": "10" } }));
    budget.take("bo");
    expect(() => budget.take("cy")).toThrow(/kept for the current rates/);
    // A new minute starts every count again.
    t += 10_000;
    budget.take("ana");
    budget.take("cy");
  });
});
