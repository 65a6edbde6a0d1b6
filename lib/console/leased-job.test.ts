import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { ratesCache } from "@/lib/console/schema";
import { Problem } from "@/lib/contract/problem";
import { type Db, getDatabase } from "@/lib/platform/db";
import { createLeasedJob, heartbeat, upstreamFailure } from "./leased-job";

/*
 * The lease on the console's real database (PGlite, or PostgreSQL with DATABASE_URL). "Two instances" are two
 * jobs (two holders) on one state row, with a clock the test moves; the rates cache's table serves as the row.
 */
let db: Db;

beforeAll(async () => {
  db = await getDatabase();
});

function twoInstances(leaseMs = 5_000) {
  const id = `test-${randomUUID()}`;
  const clock = { now: Date.parse("2026-11-23T10:00:00Z") };
  const make = () => createLeasedJob({ table: ratesCache, id, leaseMs, now: () => new Date(clock.now) });
  return { a: make(), b: make(), clock, at: () => new Date(clock.now) };
}

describe("a leased job", () => {
  it("creates its row due at once, and only one of two contending holders takes the lease", async () => {
    const { a, b, at } = twoInstances();
    const row = await a.read(db);
    expect(row).toMatchObject({ nextTryAt: new Date(0), leaseHolder: null, upstreamCalls: 0 });
    expect(a.holder).not.toBe(b.holder);

    const [first, second] = await Promise.all([a.take(db, at()), b.take(db, at())]);
    expect([first, second].filter(Boolean)).toHaveLength(1);
    const winner = first ? a : b;
    const loser = first ? b : a;
    expect((await winner.read(db)).leaseHolder).toBe(winner.holder);
    // The other one may neither write progress nor let go of a lease that is not its own.
    expect(await loser.advance(db, { staleDetail: "mine" })).toBe(false);
    expect(await loser.release(db, { staleDetail: "mine" })).toBeNull();
    expect((await winner.read(db)).staleDetail).toBeNull();
  });

  it("lets another holder take over once the lease ran out, and the first stops writing", async () => {
    const { a, b, clock, at } = twoInstances(5_000);
    await a.read(db);
    expect(await a.take(db, at())).not.toBeNull();
    expect(await a.advance(db, {}, 2)).toBe(true);
    clock.now += 4_000;
    expect(await b.take(db, at())).toBeNull();
    // Progress holds the lease for another leaseMs from now.
    expect(await a.advance(db)).toBe(true);
    clock.now += 4_000;
    expect(await b.take(db, at())).toBeNull();
    clock.now += 1_001;
    const taken = await b.take(db, at());
    expect(taken).toMatchObject({ leaseHolder: b.holder, upstreamCalls: 3 });
    expect(taken?.leaseUntil).toEqual(new Date(clock.now + 5_000));
    expect(await a.advance(db)).toBe(false);
    expect(await a.release(db, { staleReason: "late" })).toBeNull();
    expect((await b.read(db)).staleReason).toBeNull();
  });

  it("releases with the outcome and the calls it made; nobody takes it again before next_try_at", async () => {
    const { a, b, clock, at } = twoInstances();
    await a.read(db);
    await a.take(db, at());
    const released = await a.release(db, { nextTryAt: new Date(clock.now + 15_000), staleReason: "upstream_error" }, 1);
    expect(released).toMatchObject({ leaseHolder: null, leaseUntil: null, staleReason: "upstream_error", upstreamCalls: 1 });
    expect(await b.take(db, at())).toBeNull();
    clock.now += 15_000;
    expect(await b.take(db, at())).toMatchObject({ leaseHolder: b.holder });
    // Letting go with nothing to record (a graceful stop) clears the lease, so the other takes it at once.
    expect(await b.release(db)).toMatchObject({ leaseHolder: null, upstreamCalls: 1 });
    expect(await a.take(db, at())).toMatchObject({ leaseHolder: a.holder });
  });
});

describe("upstreamFailure", () => {
  it("reads a 429's Retry-After, 60 s when it names no seconds", () => {
    const limited = (retryAfter?: string) =>
      Problem.of("upstream_rate_limited", { detail: "Wait a minute.", headers: retryAfter ? { "retry-after": retryAfter } : {} });
    expect(upstreamFailure(limited("7"), "test")).toEqual({
      reason: "rate_limited",
      retryAfterSeconds: 7,
      detail: `${limited().title}. Wait a minute.`,
    });
    expect(upstreamFailure(limited(), "test").retryAfterSeconds).toBe(60);
    expect(upstreamFailure(limited("Wed, 21 Oct 2026 07:28:00 GMT"), "test").retryAfterSeconds).toBe(60);
  });

  it("any other problem is an upstream error; anything else has no words of its own", () => {
    expect(upstreamFailure(Problem.of("upstream_error"), "test")).toMatchObject({ reason: "upstream_error", retryAfterSeconds: null });
    const log = console.error;
    console.error = () => {};
    try {
      expect(upstreamFailure(new Error("boom"), "test")).toEqual({ reason: "upstream_error", retryAfterSeconds: null, detail: null });
    } finally {
      console.error = log;
    }
  });
});

describe("heartbeat", () => {
  it("renews the lease every interval while the work goes on, and not once stopped", async () => {
    vi.useFakeTimers();
    try {
      let renewed = 0;
      const stop = heartbeat(async () => renewed++, 20_000, "test job");
      await vi.advanceTimersByTimeAsync(65_000);
      expect(renewed).toBe(3);
      stop();
      await vi.advanceTimersByTimeAsync(60_000);
      expect(renewed).toBe(3);
    } finally {
      vi.useRealTimers();
    }
  });
});
