import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ConsoleServer, freePort, startConsoleServer } from "../console-server";

/**
 * Readiness means "this instance can serve people" (issue 26): with the invoicing API unreachable (a closed
 * port on 127.0.0.1), sign-in, Users, the audit log and the inbox still work, so the load balancer must keep the
 * instance. The provider's state is for /api/health's details. (503 while draining: operations.test.ts, SIGTERM.)
 */

const HEALTH_TOKEN = "readiness-monitor-token-0123456789";
let server: ConsoleServer;

beforeAll(async () => {
  const closedPort = await freePort(); // freed again at once: nothing listens there
  server = await startConsoleServer({
    INVOICING_API_URL: `http://127.0.0.1:${closedPort}/api/v1`,
    INVOICING_API_KEY: "sk_live_readiness_test_key",
    HEALTH_TOKEN,
  });
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

describe("readiness with the provider down", () => {
  it("answers 200 ready, while /api/health's details say the invoicing API is unreachable", async () => {
    const details = await (await fetch(`${server.url}/api/health`, { headers: { authorization: `Bearer ${HEALTH_TOKEN}` } })).json();
    expect(details).toMatchObject({ status: "degraded", database: { ok: true }, upstream: { ok: false } });

    const ready = await fetch(`${server.url}/api/health/ready`);
    expect(ready.status).toBe(200);
    expect(ready.headers.get("retry-after")).toBeNull();
    expect(await ready.json()).toEqual({ status: "ready", database: "ok" });

    // What people need from this instance still answers: the sign-in page.
    expect((await fetch(`${server.url}/login`)).status).toBe(200);
  });
});
