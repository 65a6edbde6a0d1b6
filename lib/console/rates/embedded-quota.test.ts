import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as sandboxRatesRoute } from "@/app/sandbox/api/v1/rates/route";
import { toDecimal } from "@/lib/contract";
import { getDatabase } from "@/lib/platform/db";
import { embeddedSandboxKey } from "@/lib/platform/embedded-sandbox-key";
import { env } from "@/lib/platform/env";
import { DEMO_KEYS, DEMO_MERCHANT_ID, hashKey } from "@/lib/sandbox/keys";
import { marketRates } from "@/lib/sandbox/market";
import { apiKeys, rateLimitCounters } from "@/lib/sandbox/schema";
import { ratesCache } from "./index";

/*
 * Anyone may call the embedded sandbox's GET /rates with the public demo keys, and must not be able
 * to starve the console's own rates that way. The console here is the real wiring — lib/platform/env's defaults, the
 * upstream client, the shared rates cache — calling its embedded sandbox over real HTTP: a plain Node server
 * on the port the console believes is its own, answering with the sandbox's route handler (no build needed).
 */

// Read once by lib/platform/env on first use: a small limit keeps the test short.
process.env.SANDBOX_RATES_LIMIT = "5";
process.env.RATES_TTL_SECONDS = "15";

let server: Server;

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (url.pathname !== "/sandbox/api/v1/rates") return void res.writeHead(404).end();
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
    const answer = await sandboxRatesRoute(new Request(url, { headers }), { params: Promise.resolve({}) });
    res.writeHead(answer.status, Object.fromEntries(answer.headers)).end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  // The console's default upstream is http://127.0.0.1:$PORT/sandbox/api/v1: this server.
  process.env.PORT = String((server.address() as AddressInfo).port);
  expect(env().invoicingApiUrl).toBe(`http://127.0.0.1:${process.env.PORT}/sandbox/api/v1`);
  expect(env().embeddedSandbox).toBe(true);
});

afterEach(() => {
  vi.useRealTimers();
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function publicCall(key: string) {
  const answer = await fetch(`http://127.0.0.1:${process.env.PORT}/sandbox/api/v1/rates`, { headers: { "api-key": key } });
  await answer.body?.cancel();
  return { status: answer.status, remaining: Number(/r=(\d+)/.exec(answer.headers.get("ratelimit") ?? "")?.[1]) };
}

describe("the console's rates against its embedded sandbox", () => {
  it("keep refreshing while the public demo keys are over their GET /rates limit", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-11-23T10:15:05Z"));

    const first = await ratesCache().get();
    expect(first).toMatchObject({ stale: false, stale_reason: null, fetched_at: "2026-11-23T10:15:05.000Z" });

    // The console's call counted against no public key: each still has its whole minute's allowance. Then
    // somebody spends all of it, on every well-known key.
    for (const { key } of DEMO_KEYS) {
      const calls = [];
      for (let i = 0; i < 6; i++) calls.push(await publicCall(key));
      expect(
        calls.map((c) => c.status),
        key,
      ).toEqual([200, 200, 200, 200, 200, 429]);
      expect(calls[0].remaining, key).toBe(4);
    }

    // Past the console's TTL, in the same limit window: the public keys are still refused, the console is not.
    vi.setSystemTime(new Date("2026-11-23T10:15:25Z"));
    expect((await publicCall("sk_test_demo_full")).status).toBe(429);
    const refreshed = await ratesCache().get();
    expect(refreshed).toMatchObject({ stale: false, stale_reason: null, fetched_at: "2026-11-23T10:15:25.000Z", age_seconds: 0 });
    // The sandbox's rates, as the console carries them: decimal strings with the digits the sandbox sent.
    expect(refreshed.rates).toEqual(
      Object.fromEntries(Object.entries(marketRates(new Date("2026-11-23T10:15:25Z"))).map(([code, rate]) => [code, toDecimal(rate)])),
    );
    expect(await ratesCache().upstreamCalls()).toBe(2);

    // Both calls were counted, in the bucket of the console's own key: a secret one, for the demo merchant.
    const db = await getDatabase();
    const key = await embeddedSandboxKey(db);
    expect(DEMO_KEYS.map((k) => k.key)).not.toContain(key);
    expect(key).toMatch(/^sk_test_console_[\w-]{32}$/);
    const [registered] = await db
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.keyHash, hashKey(key)));
    expect(registered).toMatchObject({ merchantId: DEMO_MERCHANT_ID, revokedAt: null });
    const counted = await db
      .select({ count: rateLimitCounters.count })
      .from(rateLimitCounters)
      .where(eq(rateLimitCounters.keyId, registered.id));
    expect(counted).toEqual([{ count: 2 }]);
  });

  it("make one key of their own per database, the same for every instance on it", async () => {
    const db = await getDatabase();
    const keys = await Promise.all([embeddedSandboxKey(db), embeddedSandboxKey(db), embeddedSandboxKey(db)]);
    expect(new Set(keys).size).toBe(1);
  });
});
