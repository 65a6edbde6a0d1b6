import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUpstream } from "@/lib/console/upstream/client";
import { Problem } from "@/lib/contract/problem";
import { type Db, getDatabase, openDatabase } from "@/lib/platform/db";
import { createRatesCache } from "./cache";

/*
 * The cache against a real local invoicing API that counts its calls and misbehaves on request. "Two
 * instances" are two caches (two holders, two in-process promises) on two database connections: on
 * PostgreSQL (DATABASE_URL) two pools on one server; on the embedded PGlite its one connection.
 */
type Mode = { status: number; delayMs: number; retryAfter?: string; body?: unknown };
let mode: Mode = { status: 200, delayMs: 0 };
let calls = 0;
let price = 61234.5;
let server: Server;
let baseUrl: string;
let first: Db;
let second: { db: Db; close: () => Promise<void> };

beforeAll(async () => {
  server = createServer((_req, res) => {
    calls++;
    const current = mode;
    setTimeout(() => {
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (current.retryAfter) headers["retry-after"] = current.retryAfter;
      const body = current.body ?? (current.status === 200 ? { rates: { BTC: price, ETH: "3180.12" } } : { message: "no" });
      res.writeHead(current.status, headers).end(JSON.stringify(body));
    }, current.delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
  first = await getDatabase();
  second = process.env.DATABASE_URL ? await openDatabase(process.env.DATABASE_URL) : { db: first, close: async () => {} };
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await second.close();
});

/** Two console instances sharing one cache row, with a clock the test moves. */
function instances(ttlSeconds = 15) {
  const id = `test-${randomUUID()}`;
  const clock = { now: Date.parse("2026-11-23T10:00:00Z") };
  const make = (db: Db) =>
    createRatesCache({
      db: async () => db,
      fetchRates: () => createUpstream({ baseUrl, apiKey: "sk_test_cache", timeoutMs: 5_000 }).getRates(),
      ttlSeconds,
      leaseMs: 6_000,
      id,
      now: () => new Date(clock.now),
      pollMs: 20,
    });
  return { a: make(first), b: make(second.db), clock, advance: (s: number) => (clock.now += s * 1000) };
}

function reset(next: Partial<Mode> = {}) {
  mode = { status: 200, delayMs: 0, ...next };
  calls = 0;
}

describe("the rates cache", () => {
  it("asks upstream once per TTL, whichever instance asks", async () => {
    reset();
    const { a, b, advance } = instances(15);
    const fresh = await a.get();
    expect(fresh).toMatchObject({
      rates: { BTC: "61234.5", ETH: "3180.12" },
      stale: false,
      stale_reason: null,
      age_seconds: 0,
      retry_in_seconds: 15,
    });
    advance(10);
    expect(await b.get()).toMatchObject({ rates: { BTC: "61234.5" }, age_seconds: 10, retry_in_seconds: 5 });
    expect(await a.get()).toMatchObject({ age_seconds: 10 });
    expect(calls).toBe(1);

    advance(6);
    price = 62000;
    const refreshed = await b.get();
    expect(calls).toBe(2);
    expect(refreshed).toMatchObject({ rates: { BTC: "62000" }, previous_rates: { BTC: "61234.5" }, age_seconds: 0 });
    expect(await a.upstreamCalls()).toBe(2);
    price = 61234.5;
  });

  it("keeps the previous different rates when the provider repeats itself", async () => {
    reset();
    const { a, advance } = instances(15);
    price = 100;
    await a.get();
    advance(16);
    price = 110;
    await a.get();
    advance(16);
    const repeated = await a.get();
    expect(calls).toBe(3);
    expect(repeated.rates.BTC).toBe("110");
    expect(repeated.previous_rates?.BTC).toBe("100");
    price = 61234.5;
  });

  it("coalesces many concurrent callers on two instances into one upstream call", async () => {
    reset({ delayMs: 300 });
    const { a, b } = instances();
    const views = await Promise.all(Array.from({ length: 60 }, (_, i) => (i % 2 ? b : a).get()));
    expect(calls).toBe(1);
    for (const v of views) expect(v.rates).toEqual({ BTC: "61234.5", ETH: "3180.12" });
  });

  it("serves the last good rates marked stale after a 429, and waits for Retry-After before asking again", async () => {
    reset();
    const { a, b, advance } = instances(15);
    await a.get();
    advance(16);
    reset({ status: 429, retryAfter: "40" });
    const stale = await b.get();
    expect(calls).toBe(1);
    expect(stale).toMatchObject({
      rates: { BTC: "61234.5" },
      stale: true,
      stale_reason: "rate_limited",
      age_seconds: 16,
      retry_in_seconds: 40,
    });
    expect(stale.stale_detail).toContain("Too many requests");

    // Within Retry-After (longer than the TTL) nobody asks, on either instance; the values stay.
    advance(30);
    expect(await a.get()).toMatchObject({ stale: true, retry_in_seconds: 10, rates: { BTC: "61234.5" } });
    expect(await b.get()).toMatchObject({ stale: true, age_seconds: 46 });
    expect(calls).toBe(1);

    advance(11);
    reset();
    expect(await a.get()).toMatchObject({ stale: false, stale_reason: null, age_seconds: 0 });
    expect(calls).toBe(1);
  });

  it("serves the last good rates marked stale when the provider fails, trying again after the TTL", async () => {
    reset();
    const { a, advance } = instances(15);
    await a.get();
    advance(20);
    reset({ status: 500 });
    expect(await a.get()).toMatchObject({ stale: true, stale_reason: "upstream_error", retry_in_seconds: 15, rates: { BTC: "61234.5" } });
    reset({ status: 200, body: { unexpected: true } });
    advance(15);
    expect(await a.get()).toMatchObject({ stale: true, stale_reason: "upstream_error" });
    expect(calls).toBe(1);
  });

  it("answers 503 with Retry-After when there are no good rates yet", async () => {
    reset({ status: 429, retryAfter: "25" });
    const { a, b, advance } = instances(15);
    const failure = await a.get().then(
      () => null,
      (e: unknown) => e,
    );
    expect(failure).toBeInstanceOf(Problem);
    expect(failure).toMatchObject({ status: 503, code: "rates_unavailable", headers: { "retry-after": "25" } });
    // The other instance does not ask either while Retry-After lasts.
    advance(5);
    await expect(b.get()).rejects.toMatchObject({ status: 503, headers: { "retry-after": "20" } });
    expect(calls).toBe(1);

    reset({ status: 502 });
    advance(21);
    await expect(a.get()).rejects.toMatchObject({ status: 503, headers: { "retry-after": "15" } });
    expect(calls).toBe(1);
  });

  it("lets an instance with nothing to show wait for the other instance's first answer", async () => {
    reset({ delayMs: 300 });
    const { a, b } = instances();
    const first = a.get();
    // b starts once a holds the lease, so it finds the row due, the lease taken and no rates.
    await new Promise((r) => setTimeout(r, 100));
    const [viewA, viewB] = await Promise.all([first, b.get()]);
    expect(calls).toBe(1);
    expect(viewB.rates).toEqual(viewA.rates);
  });
});
