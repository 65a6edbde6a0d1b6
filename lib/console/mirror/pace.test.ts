import fc from "fast-check";
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

describe("pages started together", () => {
  it("never holds more starts in any second than the ceiling, and starts as soon as that allows", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 20, max: 1_000 }),
        fc.array(fc.tuple(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 0, max: 400 })), { minLength: 1, maxLength: 60 }),
        (minIntervalMs, batches) => {
          const pace = createPace({ minIntervalMs });
          const starts: number[] = [];
          let earliest = 0;
          for (const [wanted, gap] of batches) {
            const count = Math.min(wanted, pace.perSecond);
            earliest += gap;
            const at = pace.startAt(count, earliest);
            expect(at).toBeGreaterThanOrEqual(earliest);
            // As soon as allowed: a millisecond sooner would hold one start too many (or be before `earliest`).
            const before = starts.filter((s) => s > at - 1 - 1000 && s <= at - 1).length;
            if (at > earliest && at > (starts.at(-1) ?? 0)) expect(before + count).toBeGreaterThan(pace.perSecond);
            starts.push(...Array<number>(count).fill(at));
          }
          for (const s of starts) expect(starts.filter((t) => t > s - 1000 && t <= s).length).toBeLessThanOrEqual(pace.perSecond);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("refuses more pages at once than the ceiling allows a second", () => {
    expect(() => createPace({ minIntervalMs: 500 }).startAt(3, 0)).toThrow(RangeError);
  });
});
