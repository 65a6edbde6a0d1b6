import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

const TOKEN = "health-token-for-the-monitor-0123";
let provider: Server;
let providerCalls = 0;
let providerFails = false;
let GET: (request: Request, context: unknown) => Promise<Response>;
const cookies: Record<string, string> = {};

beforeAll(async () => {
  provider = createServer((_req, res) => {
    providerCalls++;
    if (providerFails) return res.writeHead(503, { "content-type": "text/plain" }).end("down for maintenance");
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ currencies: [{ code: "BTC", name: "Bitcoin" }] }));
  });
  await new Promise<void>((resolve) => provider.listen(0, "127.0.0.1", resolve));
  process.env.INVOICING_API_URL = `http://127.0.0.1:${(provider.address() as AddressInfo).port}/api/v1`;
  process.env.INVOICING_API_KEY = "sk_live_must_never_show";
  process.env.HEALTH_TOKEN = TOKEN;
  ({ GET } = await import("@/app/api/health/route"));
  const { signedInCookie } = await import("@/lib/console/auth/signed-in-cookie");
  cookies.admin = await signedInCookie("admin");
  cookies.viewer = await signedInCookie("viewer");
});

afterAll(async () => {
  provider.closeAllConnections();
  await new Promise((resolve) => provider.close(resolve));
});

const ask = async (headers: HeadersInit = {}) => {
  const response = await GET(new Request("http://console.test/api/health", { headers }), { params: Promise.resolve({}) });
  expect(response.status).toBe(200);
  return response.json();
};

describe("GET /api/health", () => {
  it("tells anyone only that the console is up, without asking the provider", async () => {
    const before = providerCalls;
    const anonymous: Record<string, string>[] = [
      {},
      { cookie: cookies.viewer },
      { authorization: "Bearer wrong-token-of-the-same-len" },
      { authorization: TOKEN },
    ];
    for (const headers of anonymous) {
      expect(await ask(headers)).toEqual({ status: "ok" });
    }
    expect(providerCalls).toBe(before);
  });

  it("gives a monitor with HEALTH_TOKEN and a signed-in admin the database's and the provider's state", async () => {
    const forMonitor = await ask({ authorization: `Bearer ${TOKEN}` });
    expect(forMonitor).toMatchObject({
      status: "ok",
      database: { ok: true, driver: "pglite" },
      upstream: { ok: true, embedded_sandbox: false },
    });
    expect(await ask({ cookie: cookies.admin })).toMatchObject({ status: "ok", upstream: { ok: true } });
    expect(JSON.stringify(forMonitor)).not.toContain("sk_live_must_never_show");
  });

  it("asks the provider at most once per 30 s however often it is polled", async () => {
    const before = providerCalls;
    const answers = await Promise.all(Array.from({ length: 10 }, () => ask({ authorization: `Bearer ${TOKEN}` })));
    expect(providerCalls - before).toBeLessThanOrEqual(1);
    expect(new Set(answers.map((a) => a.upstream.checked_at)).size).toBe(1);
  });
});

describe("GET /api/health/ready", () => {
  const ready = async () => {
    const { GET: READY } = await import("@/app/api/health/ready/route");
    const response = await READY(new Request("http://console.test/api/health/ready"), { params: Promise.resolve({}) });
    return { status: response.status, retryAfter: response.headers.get("retry-after"), body: await response.json() };
  };
  const thirtySecondsLater = () => vi.setSystemTime(Date.now() + 31_000);

  it("answers 200 while the database answers, to anyone, without a session, and without asking the provider", async () => {
    const before = providerCalls;
    expect(await ready()).toEqual({ status: 200, retryAfter: null, body: { status: "ready", database: "ok" } });
    expect(providerCalls).toBe(before);
  });

  it("stays 200 while the invoicing API fails (every instance would be taken out alike); /api/health's details say so", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      providerFails = true;
      thirtySecondsLater();
      expect(await ready()).toEqual({ status: 200, retryAfter: null, body: { status: "ready", database: "ok" } });
      expect(await ask({ authorization: `Bearer ${TOKEN}` })).toMatchObject({ status: "degraded", upstream: { ok: false } });
    } finally {
      providerFails = false;
      vi.useRealTimers();
    }
  });

  it("answers 503 from the moment the server starts shutting down, so a load balancer sends the work elsewhere", async () => {
    const { AsyncLocalStorage } = await import("node:async_hooks");
    const server = globalThis as typeof globalThis & { __invoiceConsoleServer?: unknown };
    server.__invoiceConsoleServer = { draining: true, requests: new AsyncLocalStorage(), internalToken: "t" };
    try {
      expect(await ready()).toMatchObject({
        status: 503,
        body: { status: "not_ready", database: "ok", shutting_down: true },
      });
    } finally {
      delete server.__invoiceConsoleServer;
    }
  });
});
