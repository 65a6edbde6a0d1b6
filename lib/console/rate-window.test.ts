import { describe, expect, it } from "vitest";
import { fixedWindowLimiter } from "./rate-window";

describe("fixedWindowLimiter", () => {
  it("lets `limit` requests of a key through a window, then answers the seconds left, and starts afresh", () => {
    let at = 1_000_000;
    const limiter = fixedWindowLimiter({ limit: 3, windowMs: 60_000, now: () => at });
    expect([limiter.take("a"), limiter.take("a"), limiter.take("a")]).toEqual([0, 0, 0]);
    at += 15_000;
    expect(limiter.take("a")).toBe(45);
    expect(limiter.take("b")).toBe(0);
    at += 45_000;
    expect(limiter.take("a")).toBe(0);
  });

  it("remembers at most maxKeys keys: the rest share one budget, so many addresses cannot grow it or escape it", () => {
    const limiter = fixedWindowLimiter({ limit: 2, windowMs: 60_000, maxKeys: 3, now: () => 0 });
    expect(["a", "b", "c"].map((key) => limiter.take(key))).toEqual([0, 0, 0]);
    expect(limiter.take("d")).toBe(0);
    expect(limiter.take("e")).toBe(0);
    expect(limiter.take("f")).toBeGreaterThan(0);
    expect(limiter.take("a")).toBe(0);
  });
});
