import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { GET } from "@/app/sandbox/api/v1/rates/route";
import { openDatabase, type Db } from "@/lib/db";
import { apiKeys } from "@/lib/db/schema";
import { getSandboxDb, SANDBOX_CURRENCIES } from "@/lib/sandbox";
import { hashKey } from "./keys";
import { marketRates } from "./market";
import { consumeRateLimit } from "./rate-limit";
import { createTestMerchant } from "./test-fixtures";

// Read once by lib/env on first use: a small limit keeps the tests short.
process.env.SANDBOX_RATES_LIMIT = "5";

let db: Db;
const keyIdOf = async (key: string) => (await db.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.keyHash, hashKey(key))))[0].id;

beforeAll(async () => {
  db = await getSandboxDb();
});

afterEach(() => {
  vi.useRealTimers();
});

async function getRates(key: string | null) {
  const response = await GET(new Request("http://sandbox.test/sandbox/api/v1/rates", { headers: key ? { "api-key": key } : {} }), {
    params: Promise.resolve({}),
  });
  return {
    status: response.status,
    body: await response.json(),
    policy: response.headers.get("ratelimit-policy"),
    limit: response.headers.get("ratelimit"),
    retryAfter: response.headers.get("retry-after"),
    type: response.headers.get("content-type"),
  };
}

describe("GET /rates", () => {
  it("answers EUR per unit of every sandbox currency, the simulated market's rates of this minute", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-11-23T10:15:20Z"));
    const { key } = await createTestMerchant(db, []);
    const { status, body } = await getRates(key);
    expect(status).toBe(200);
    expect(Object.keys(body.rates).sort()).toEqual(SANDBOX_CURRENCIES.map((c) => c.code).sort());
    expect(body.rates).toEqual(marketRates(new Date("2026-11-23T10:15:00Z")));
    for (const value of Object.values(body.rates)) expect(typeof value).toBe("number");
  });

  it("counts each key's requests in a one-minute window with the IETF draft headers, then answers 429 with Retry-After", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-11-23T10:20:45Z"));
    const { key } = await createTestMerchant(db, []);
    const seen = [];
    for (let i = 0; i < 5; i++) seen.push(await getRates(key));
    expect(seen.map((s) => s.status)).toEqual([200, 200, 200, 200, 200]);
    expect(seen.map((s) => s.policy)).toEqual(Array(5).fill('"default";q=5;w=60'));
    // 15 s left in the window that started at 10:20:00.
    expect(seen.map((s) => s.limit)).toEqual([4, 3, 2, 1, 0].map((r) => `"default";r=${r};t=15`));
    expect(seen[0].retryAfter).toBeNull();

    const refused = await getRates(key);
    expect(refused.status).toBe(429);
    expect(refused.type).toBe("application/problem+json");
    expect(refused.body).toMatchObject({ status: 429, code: "rate_limited" });
    expect(refused.retryAfter).toBe("15");
    expect(refused.policy).toBe('"default";q=5;w=60');
    expect(refused.limit).toBe('"default";r=0;t=15');

    // Another key has its own allowance.
    const other = await createTestMerchant(db, []);
    expect((await getRates(other.key)).status).toBe(200);

    // The next window starts afresh.
    vi.setSystemTime(new Date("2026-11-23T10:21:01Z"));
    const next = await getRates(key);
    expect(next.status).toBe(200);
    expect(next.limit).toBe('"default";r=4;t=59');
  });

  it("needs a key (401) with the rates:read scope (403)", async () => {
    expect((await getRates(null)).status).toBe(401);
    expect((await getRates("sk_test_nobody")).status).toBe(401);
    const { key } = await createTestMerchant(db, [], ["invoices:read"]);
    const { status, body } = await getRates(key);
    expect(status).toBe(403);
    expect(body.code).toBe("insufficient_scope");
  });
});

describe("the limiter, shared across database connections", () => {
  // On PostgreSQL (CI sets DATABASE_URL) a second pool is a second connection to the same server, as a
  // second sandbox instance would be; on the embedded PGlite both halves share its one connection.
  let second: { db: Db; close: () => Promise<void> };
  beforeAll(async () => {
    const url = process.env.DATABASE_URL;
    second = url ? await openDatabase(url) : { db, close: async () => {} };
  });
  afterAll(async () => {
    await second.close();
  });

  it("lets exactly the limit through when many requests race on two connections", async () => {
    const { key } = await createTestMerchant(db, []);
    const keyId = await keyIdOf(key);
    const now = new Date("2026-11-23T11:00:30Z");
    const verdicts = await Promise.all(
      Array.from({ length: 40 }, (_, i) => consumeRateLimit(i % 2 ? second.db : db, keyId, 25, now)),
    );
    expect(verdicts.filter((v) => v.allowed)).toHaveLength(25);
    expect(verdicts.filter((v) => !v.allowed)).toHaveLength(15);
    expect(verdicts.map((v) => v.remaining).sort((a, b) => a - b)).toEqual([...Array(15).fill(0), ...Array.from({ length: 25 }, (_, i) => i)]);
    for (const v of verdicts.filter((v) => !v.allowed)) expect(v.headers["retry-after"]).toBe("30");
  });

  it("keeps one counter row per key: a new window clears the old one", async () => {
    const { key } = await createTestMerchant(db, []);
    const keyId = await keyIdOf(key);
    await consumeRateLimit(db, keyId, 10, new Date("2026-11-23T12:00:10Z"));
    await consumeRateLimit(second.db, keyId, 10, new Date("2026-11-23T12:01:10Z"));
    const { rateLimitCounters } = await import("@/lib/db/schema");
    const rows = await db.select().from(rateLimitCounters).where(eq(rateLimitCounters.keyId, keyId));
    expect(rows.map((r) => [r.windowStart.toISOString(), r.count])).toEqual([["2026-11-23T12:01:00.000Z", 1]]);
  });
});
