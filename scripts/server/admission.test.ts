import { describe, expect, it, vi } from "vitest";
// @ts-expect-error -- a plain ES module of the server layer, without type declarations
import { bypassesAdmission, createAdmission } from "./admission.mjs";

type Leave = () => void;
type Admission = { enter(gaveUp?: AbortSignal): Promise<Leave | null>; readonly active: number; readonly waiting: number };
const admission = (options: { limit: number; queue: number; maxWaitMs: number }) => createAdmission(options) as Admission;

describe("the front door", () => {
  it("admits up to the limit, queues up to the queue's size, and refuses the rest at once", async () => {
    const door = admission({ limit: 2, queue: 1, maxWaitMs: 60_000 });
    const [a, b] = await Promise.all([door.enter(), door.enter()]);
    expect(a).toBeTypeOf("function");
    expect(b).toBeTypeOf("function");
    const queued = door.enter();
    expect(door.waiting).toBe(1);
    expect(await door.enter()).toBeNull();

    a!();
    const c = await queued;
    expect(c).toBeTypeOf("function");
    expect([door.active, door.waiting]).toEqual([2, 0]);
    b!();
    c!();
    expect(door.active).toBe(0);
  });

  it("refuses a request that waited maxWaitMs without a place, and frees its place in the queue", async () => {
    vi.useFakeTimers();
    try {
      const door = admission({ limit: 1, queue: 1, maxWaitMs: 1_000 });
      const held = await door.enter();
      const waiting = door.enter();
      await vi.advanceTimersByTimeAsync(1_000);
      expect(await waiting).toBeNull();
      expect(door.waiting).toBe(0);
      held!();
      expect(door.active).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it("gives a place back once, however often its holder lets go", async () => {
    const door = admission({ limit: 1, queue: 0, maxWaitMs: 0 });
    const leave = await door.enter();
    leave!();
    leave!();
    expect(door.active).toBe(0);
    const again = await door.enter();
    expect(again).toBeTypeOf("function");
    expect(await door.enter()).toBeNull();
  });

  it("lets static files and health probes through without a place", () => {
    for (const path of ["/_next/static/chunks/app.js", "/api/health", "/api/health/ready", "/api/metrics", "/favicon.ico", "/icon.svg"]) {
      expect(bypassesAdmission(path), path).toBe(true);
    }
    for (const path of ["/api/invoices", "/invoices", "/sandbox/api/v1/invoices", "/api/health/../invoices", "/_next/data/x.json"]) {
      expect(bypassesAdmission(path), path).toBe(false);
    }
  });
});

describe("a client that gives up while it waits", () => {
  it("leaves the queue at once, so the next request is not refused for its sake", async () => {
    const door = admission({ limit: 1, queue: 1, maxWaitMs: 60_000 });
    const held = await door.enter();
    const gaveUp = new AbortController();
    const waiting = door.enter(gaveUp.signal);
    expect(door.waiting).toBe(1);
    gaveUp.abort();
    expect(await waiting).toBeNull();
    expect(door.waiting).toBe(0);
    // Its place in the queue is free again.
    const next = door.enter();
    expect(door.waiting).toBe(1);
    held!();
    expect(await next).toBeTypeOf("function");
  });
});

describe("a cap per key (the anonymous pool's per-address cap)", () => {
  type Keyed = { enter(gaveUp?: AbortSignal, key?: string): Promise<Leave | null>; readonly active: number; readonly waiting: number };
  it("refuses a key's request past perKey, admitted or waiting, while other keys still get places", async () => {
    const door = createAdmission({ limit: 3, queue: 2, maxWaitMs: 60_000, perKey: 2 }) as Keyed;
    const a1 = await door.enter(undefined, "203.0.113.1");
    const a2 = await door.enter(undefined, "203.0.113.1");
    expect(await door.enter(undefined, "203.0.113.1")).toBeNull();
    const b1 = await door.enter(undefined, "203.0.113.2");
    expect(b1).toBeTypeOf("function");
    const b2 = door.enter(undefined, "203.0.113.2"); // waits: the pool is full
    expect(door.waiting).toBe(1);
    expect(await door.enter(undefined, "203.0.113.2")).toBeNull();
    a1!();
    expect(await b2).toBeTypeOf("function");
    const a3 = door.enter(undefined, "203.0.113.1"); // the pool is full again, but this address has one place: it waits
    expect(door.waiting).toBe(1);
    a2!();
    expect(await a3).toBeTypeOf("function");
  });

  it("counts a key's place again once it is given back, or once its wait ends", async () => {
    vi.useFakeTimers();
    try {
      const door = createAdmission({ limit: 1, queue: 2, maxWaitMs: 1_000, perKey: 1 }) as Keyed;
      const held = await door.enter(undefined, "x");
      const waiting = door.enter(undefined, "y");
      await vi.advanceTimersByTimeAsync(1_000);
      expect(await waiting).toBeNull();
      const again = door.enter(undefined, "y");
      expect(door.waiting).toBe(1);
      held!();
      expect(await again).toBeTypeOf("function");
    } finally {
      vi.useRealTimers();
    }
  });
});
