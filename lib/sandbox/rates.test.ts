import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { GET } from "@/app/sandbox/api/v1/rates/route";
import { type LosslessNumber, parseJsonLossless } from "@/lib/contract/money-json";
import { type Db, openDatabase } from "@/lib/platform/db";
import { getSandboxDb, SANDBOX_CURRENCIES } from "@/lib/sandbox";
import { apiKeys } from "@/lib/sandbox/schema";
import { createTestMerchant } from "@/test/sandbox-fixtures";
import { hashKey } from "./keys";
import { marketRates } from "./market";
import { consumeRateLimit } from "./rate-limit";

// Read once by lib/platform/env on first use: a small limit keeps the tests short.
process.env.SANDBOX_RATES_LIMIT = "5";

let db: Db;
const keyIdOf = async (key: string) =>
  (
    await db
      .select({ id: apiKeys.id })
      .from(apiKeys)
      .where(eq(apiKeys.keyHash, hashKey(key)))
  )[0].id;

beforeAll(async () => {
  db = await getSandboxDb();
});

afterEach(() => {
  vi.useRealTimers();
});

async function getRates(key: string | null, query = "") {
  const response = await GET(new Request(`http://sandbox.test/sandbox/api/v1/rates${query}`, { headers: key ? { "api-key": key } : {} }), {
    params: Promise.resolve({}),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: JSON.parse(text),
    lossless: parseJsonLossless(text) as { rates: Record<string, LosslessNumber>; at?: string },
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
    const { status, body, lossless } = await getRates(key);
    expect(status).toBe(200);
    expect(Object.keys(body.rates).sort()).toEqual(SANDBOX_CURRENCIES.map((c) => c.code).sort());
    expect(Object.keys(body)).toEqual(["rates"]);
    // Each rate a JSON number with exactly the market's digits (read from the answer's text, not through a float).
    expect(Object.fromEntries(Object.entries(lossless.rates).map(([code, rate]) => [code, rate.value]))).toEqual(
      marketRates(new Date("2026-11-23T10:15:00Z")),
    );
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

describe("GET /rates?at= (a sandbox extension): the market's history", () => {
  const NOW = new Date("2026-11-23T10:30:20Z");
  const at = (value: string) => `?at=${encodeURIComponent(value)}`;
  const rateDigits = (rates: Record<string, LosslessNumber>) =>
    Object.fromEntries(Object.entries(rates).map(([code, rate]) => [code, rate.value]));

  it("answers the rates of the instant's UTC minute and names the minute's start, for a date-time with an offset or a plain date", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(NOW);
    const { key } = await createTestMerchant(db, []);
    for (const [value, minute] of [
      ["2025-03-01T12:34:56.789+01:00", "2025-03-01T11:34:00.000Z"],
      ["2025-03-01", "2025-03-01T00:00:00.000Z"],
      ["2000-01-01", "2000-01-01T00:00:00.000Z"],
      ["2026-11-23T10:31:19Z", "2026-11-23T10:31:00.000Z"], // within the minute of clock skew
    ]) {
      const { status, body, lossless } = await getRates(key, at(value));
      expect(status, value).toBe(200);
      expect(Object.keys(body), value).toEqual(["rates", "at"]);
      expect(body.at, value).toBe(minute);
      expect(rateDigits(lossless.rates), value).toEqual(marketRates(new Date(minute)));
    }
    // Not today's rates.
    expect(rateDigits((await getRates(key, at("2025-03-01"))).lossless.rates)).not.toEqual(marketRates(NOW));
  });

  it.each([
    ["yesterday", "must be a date (2026-01-31) or a date-time with an offset (2026-01-31T12:00:00+01:00)"],
    [
      "2025-02-30",
      "has 2025-02-30, which is not a day of the calendar; must be a date (2026-01-31) or a date-time with an offset (2026-01-31T12:00:00+01:00)",
    ],
    ["2025-03-01T12:00:00", "must be a date (2026-01-31) or a date-time with an offset (2026-01-31T12:00:00+01:00)"],
    ["2025-03-01T12:00:00+0100", "must be a date (2026-01-31) or a date-time with an offset (2026-01-31T12:00:00+01:00)"],
    ["2025-03-01T12:00:00+01", "must be a date (2026-01-31) or a date-time with an offset (2026-01-31T12:00:00+01:00)"],
    ["2025-03-01T12:00:00+25:00", "must be a date (2026-01-31) or a date-time with an offset (2026-01-31T12:00:00+01:00)"],
    ["1999-12-31T23:59:59Z", "must be on or after 2000-01-01"],
    ["1999-12-31", "must be on or after 2000-01-01"],
    ["2026-11-23T10:31:21Z", "must not be in the future"],
    ["2026-11-24", "must not be in the future"],
  ])("at=%s → 422 on /at: %s, and the request is not counted", async (value, detail) => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(NOW);
    const { key } = await createTestMerchant(db, []);
    const refused = await getRates(key, at(value));
    expect(refused.status).toBe(422);
    expect(refused.type).toBe("application/problem+json");
    expect(refused.body).toMatchObject({ status: 422, code: "validation_failed", detail: `at ${detail}` });
    expect(refused.body.errors).toEqual([{ pointer: "/at", code: expect.any(String), detail }]);
    // The key's whole allowance is still there.
    expect((await getRates(key)).limit).toBe('"default";r=4;t=40');
  });

  it("counts against the key's limit like GET /rates without it", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(NOW);
    const { key } = await createTestMerchant(db, []);
    const seen = [
      await getRates(key),
      await getRates(key, at("2025-03-01")),
      await getRates(key, at("2024-01-01T00:00:00Z")),
      await getRates(key),
      await getRates(key, at("2025-03-01")),
    ];
    expect(seen.map((s) => s.status)).toEqual([200, 200, 200, 200, 200]);
    expect(seen.map((s) => s.limit)).toEqual([4, 3, 2, 1, 0].map((r) => `"default";r=${r};t=40`));
    const refused = await getRates(key, at("2025-03-01"));
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe("rate_limited");
    expect(refused.retryAfter).toBe("40");
  });

  it("needs the rates:read scope with at too (403 before the value is read)", async () => {
    const { key } = await createTestMerchant(db, [], ["invoices:read"]);
    expect((await getRates(key, at("not a date"))).status).toBe(403);
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
    const verdicts = await Promise.all(Array.from({ length: 40 }, (_, i) => consumeRateLimit(i % 2 ? second.db : db, keyId, 25, now)));
    expect(verdicts.filter((v) => v.allowed)).toHaveLength(25);
    expect(verdicts.filter((v) => !v.allowed)).toHaveLength(15);
    expect(verdicts.map((v) => v.remaining).sort((a, b) => a - b)).toEqual([
      ...Array(15).fill(0),
      ...Array.from({ length: 25 }, (_, i) => i),
    ]);
    for (const v of verdicts.filter((v) => !v.allowed)) expect(v.headers["retry-after"]).toBe("30");
  });

  it("keeps one counter row per key: a new window clears the old one", async () => {
    const { key } = await createTestMerchant(db, []);
    const keyId = await keyIdOf(key);
    await consumeRateLimit(db, keyId, 10, new Date("2026-11-23T12:00:10Z"));
    await consumeRateLimit(second.db, keyId, 10, new Date("2026-11-23T12:01:10Z"));
    const { rateLimitCounters } = await import("@/lib/sandbox/schema");
    const rows = await db.select().from(rateLimitCounters).where(eq(rateLimitCounters.keyId, keyId));
    expect(rows.map((r) => [r.windowStart.toISOString(), r.count])).toEqual([["2026-11-23T12:01:00.000Z", 1]]);
  });
});
