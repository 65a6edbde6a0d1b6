import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type ConsoleServer, freePort, startConsoleServer } from "../console-server";

/**
 * Readiness means "this instance can serve people": with the invoicing API unreachable (a closed
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

describe("the start explains itself", () => {
  it("says where people and the audit log live, says when it is ready, and prints no warning nobody can act on", async () => {
    // An upstream call has been made (the details above), so the upstream client's agent exists.
    await fetch(`${server.url}/api/health`, { headers: { authorization: `Bearer ${HEALTH_TOKEN}` } });
    await vi.waitFor(() => expect(server.output()).toContain(`Ready on ${server.url}`));
    // What the server printed (test/prepare-console.ts, run before it, is a test's own script).
    const output = server.output().slice(server.output().indexOf("Invoice Console listening on"));
    expect(output).toContain(`Note: People, sessions and the audit log are kept in a local folder, ${server.dataDir}`);
    expect(output).not.toContain("ExperimentalWarning");
    expect(output).not.toMatch(/telemetry/i);
  });
});
