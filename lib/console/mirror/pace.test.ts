import { describe, expect, it } from "vitest";
import { createPace } from "./pace";

describe("the mirror's pace", () => {
  it("starts at an eighth of its ceiling and reaches it after a run of quick answers, never beyond", () => {
    const pace = createPace({ minIntervalMs: 20 });
    expect(pace.intervalMs()).toBe(160);
    for (let i = 0; i < 9; i++) pace.answered(30);
    expect(pace.intervalMs()).toBe(21);
    for (let i = 0; i < 5; i++) pace.answered(30);
    expect(pace.intervalMs()).toBe(20);
  });

  it("halves after a slow answer or a refusal, down to its floor, and holds for answers neither quick nor slow", () => {
    const pace = createPace({ minIntervalMs: 20, maxIntervalMs: 500 });
    pace.answered(2_000);
    expect(pace.intervalMs()).toBe(320);
    pace.refused();
    expect(pace.intervalMs()).toBe(500);
    pace.answered(800);
    expect(pace.intervalMs()).toBe(500);
  });

  it("yields to people's calls: slower while others are busy, whatever the latency", () => {
    let busy = true;
    const pace = createPace({ minIntervalMs: 20, othersBusy: () => busy });
    pace.answered(10);
    expect(pace.intervalMs()).toBe(320);
    busy = false;
    pace.answered(10);
    expect(pace.intervalMs()).toBe(256);
  });
});
