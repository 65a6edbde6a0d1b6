import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const TOKEN = "health-token-for-the-monitor-0123";
let provider: Server;
let providerCalls = 0;
let GET: (request: Request, context: unknown) => Promise<Response>;
const cookies: Record<string, string> = {};

beforeAll(async () => {
  provider = createServer((_req, res) => {
    providerCalls++;
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ currencies: [{ code: "BTC", name: "Bitcoin" }] }));
  });
  await new Promise<void>((resolve) => provider.listen(0, "127.0.0.1", resolve));
  process.env.INVOICING_API_URL = `http://127.0.0.1:${(provider.address() as AddressInfo).port}/api/v1`;
  process.env.INVOICING_API_KEY = "sk_live_must_never_show";
  process.env.HEALTH_TOKEN = TOKEN;
  ({ GET } = await import("@/app/api/health/route"));
  const { signedInCookie } = await import("@/lib/auth/signed-in-cookie");
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
    const anonymous: Record<string, string>[] = [{}, { cookie: cookies.viewer }, { authorization: "Bearer wrong-token-of-the-same-len" }, { authorization: TOKEN }];
    for (const headers of anonymous) {
      expect(await ask(headers)).toEqual({ status: "ok" });
    }
    expect(providerCalls).toBe(before);
  });

  it("gives a monitor with HEALTH_TOKEN and a signed-in admin the database's and the provider's state", async () => {
    const forMonitor = await ask({ authorization: `Bearer ${TOKEN}` });
    expect(forMonitor).toMatchObject({ status: "ok", database: { ok: true, driver: "pglite" }, upstream: { ok: true, embedded_sandbox: false } });
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
