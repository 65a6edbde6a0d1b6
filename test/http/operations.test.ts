import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type ConsoleServer, exited, startConsoleServer } from "../console-server";
import { type SecondProvider, startSecondProvider } from "../second-provider";

/**
 * Operating the console, through the real server (scripts/server/server.mjs over the build): one JSON log
 * line per request, readiness, and a graceful shutdown on SIGTERM. The upstream is a provider of the test's
 * own, so that a request can be held in flight for as long as the test needs.
 */

let provider: SecondProvider;
let server: ConsoleServer;

beforeAll(async () => {
  provider = await startSecondProvider();
  server = await startConsoleServer({
    INVOICING_API_URL: provider.url,
    INVOICING_API_KEY: provider.key,
    LOG_FORMAT: "json",
    SHUTDOWN_GRACE_SECONDS: "20",
  });
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await provider?.close();
});

type LogLine = Record<string, unknown>;
const logLines = (): LogLine[] =>
  server
    .output()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as LogLine);

describe("request log (LOG_FORMAT=json)", () => {
  it("writes one JSON line per request: method, the route's pattern (never the path's ids), status, duration, upstream calls", async () => {
    const viewer = { cookie: server.sessions.roles.viewer };
    const before = logLines().length;
    expect((await fetch(`${server.url}/api/currencies`, { headers: viewer })).status).toBe(200);
    expect((await fetch(`${server.url}/api/invoices/inv_8Hq2x`, { headers: viewer })).status).toBe(200);
    expect((await fetch(`${server.url}/api/invoices/inv_8Hq2x`)).status).toBe(401);

    const lines = await vi.waitFor(() => {
      // The start's own health polls may still be on their way out of the pipe.
      const fresh = logLines()
        .slice(before)
        .filter((line) => line.msg === "request" && line.route !== "/api/health");
      expect(fresh, JSON.stringify(fresh)).toHaveLength(3);
      return fresh;
    });
    for (const line of lines) {
      expect(Object.keys(line).sort()).toEqual([
        "duration_ms",
        "level",
        "method",
        "msg",
        "request_id",
        "route",
        "status",
        "time",
        "upstream_calls",
      ]);
      expect(line.duration_ms).toBeTypeOf("number");
      expect(new Date(String(line.time)).toISOString()).toBe(line.time);
    }
    expect(lines.map(({ method, route, status, upstream_calls, msg }) => ({ method, route, status, upstream_calls, msg }))).toEqual([
      { method: "GET", route: "/api/currencies", status: 200, upstream_calls: 1, msg: "request" },
      { method: "GET", route: "/api/invoices/[id]", status: 200, upstream_calls: 1, msg: "request" },
      // Refused before the provider is asked.
      { method: "GET", route: "/api/invoices/[id]", status: 401, upstream_calls: 0, msg: "request" },
    ]);
    expect(JSON.stringify(lines)).not.toContain("inv_8Hq2x");
  });
});

describe("request ids (X-Request-Id)", () => {
  it("makes one per request (a client's own is not believed without a trusted proxy): in the answer's header, its problem and its log line", async () => {
    const before = logLines().length;
    const refused = await fetch(`${server.url}/api/invoices/inv_8Hq2x`, { headers: { "x-request-id": "made-up-by-the-client" } });
    expect(refused.status).toBe(401);
    const id = refused.headers.get("x-request-id");
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(await refused.json()).toMatchObject({ status: 401, code: "unauthenticated", request_id: id });
    // A problem the server layer answers itself carries it too.
    const traced = await fetch(`${server.url}/api/currencies`, { method: "PROPFIND" });
    expect(traced.status).toBe(405);
    expect(await traced.json()).toMatchObject({ code: "method_not_allowed", request_id: traced.headers.get("x-request-id") });
    expect(traced.headers.get("x-request-id")).not.toBe(id);
    await vi.waitFor(() => {
      const line = logLines()
        .slice(before)
        .find((l) => l.msg === "request" && l.status === 401);
      expect(line).toMatchObject({ route: "/api/invoices/[id]", request_id: id });
    });
  });

  it("writes what the app prints as JSON lines too, never raw text between them", () => {
    const lines = server
      .output()
      .split("\n")
      .filter((line) => line.trim() !== "");
    const afterStart = lines.slice(lines.findIndex((line) => line.includes("Invoice Console listening on")));
    expect(afterStart.length).toBeGreaterThan(1);
    for (const line of afterStart) expect(() => JSON.parse(line), line).not.toThrow();
  });
});

describe("readiness", () => {
  it("GET /api/health/ready answers 200 while the database answers, naming neither the provider's address nor the key", async () => {
    const response = await fetch(`${server.url}/api/health/ready`);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({ status: "ready", database: "ok" });
    expect(text).not.toContain(new URL(provider.url).host);
    expect(text).not.toContain(provider.key);
    // Liveness stays the bare answer for anyone.
    expect(await (await fetch(`${server.url}/api/health`)).json()).toEqual({ status: "ok" });
  });
});

describe("SIGTERM", () => {
  it("refuses new work at once, finishes the requests in flight, closes the database cleanly and says so in one line", async () => {
    provider.settings.slowMs = 2_000;
    const viewer = { cookie: server.sessions.roles.viewer };
    const asked = provider.requests.length;
    const inFlight = Array.from({ length: 3 }, () => fetch(`${server.url}/api/invoices/inv_slow`, { headers: viewer }));
    // Three identical reads at one moment are coalesced into one call to the provider (lib/console/upstream).
    await vi.waitFor(() => expect(provider.requests.length - asked).toBe(1), { timeout: 10_000, interval: 20 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(provider.requests.length - asked).toBe(1);

    server.child.kill("SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, 200));
    const refused = await fetch(`${server.url}/api/currencies`, { headers: viewer });
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(await refused.json()).toMatchObject({ code: "shutting_down", status: 503 });
    // Readiness too, while the requests in flight finish: the load balancer takes this instance out.
    const notReady = await fetch(`${server.url}/api/health/ready`);
    expect(notReady.status).toBe(503);
    expect(notReady.headers.get("retry-after")).toBe("1");

    const answers = await Promise.all(inFlight);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    for (const answer of answers) expect(await answer.json()).toMatchObject({ invoice_id: "inv_slow" });
    expect(await exited(server.child)).toBe(0);

    const shutdown = logLines().filter((line) => line.msg === "shutdown");
    expect(shutdown).toEqual([
      expect.objectContaining({
        level: "info",
        signal: "SIGTERM",
        requests_finished: 3,
        requests_cut_off: 0,
        database: "closed",
        webhook_deliveries_released: 0,
      }),
    ]);
    // PGlite wrote its shutdown checkpoint: pg_control's state is DB_SHUTDOWNED (1), not "in production" (6),
    // so the next start needs no recovery.
    expect(readFileSync(path.join(server.dataDir, "global", "pg_control")).readUInt32LE(16)).toBe(1);
  }, 60_000);
});
