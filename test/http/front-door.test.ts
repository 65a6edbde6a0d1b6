import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type ConsoleServer, startConsoleServer } from "../console-server";
import { type SecondProvider, startSecondProvider } from "../second-provider";

/**
 * The server's front door (scripts/server/admission.mjs, issue 16), through the real server: with one place and no
 * queue, a request held at the provider fills it, and every other request is refused at once with a 503 and
 * Retry-After, until the place comes free. Probes and static files still pass.
 */

let provider: SecondProvider;
let server: ConsoleServer;

beforeAll(async () => {
  provider = await startSecondProvider();
  server = await startConsoleServer({
    INVOICING_API_URL: provider.url,
    INVOICING_API_KEY: provider.key,
    REQUEST_MAX_CONCURRENCY: "1",
    OVERLOAD_MAX_WAIT_MS: "0",
  });
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await provider?.close();
});

describe("front door", () => {
  it("refuses work past its limit at once with 503 and Retry-After, lets probes through, and admits again when a place frees", async () => {
    const viewer = { cookie: server.sessions.roles.viewer };
    const release = provider.hold();
    const held = fetch(`${server.url}/api/invoices/inv_slow`, { headers: viewer });
    await vi.waitFor(() => expect(provider.requests.some((r) => r.url.includes("inv_slow"))).toBe(true), { timeout: 10_000 });

    const api = await fetch(`${server.url}/api/currencies`, { headers: viewer });
    expect(api.status).toBe(503);
    expect(api.headers.get("retry-after")).toBe("2");
    expect(api.headers.get("content-type")).toContain("application/problem+json");
    expect(await api.json()).toMatchObject({ status: 503, code: "overloaded", title: "Busy right now" });

    const page = await fetch(`${server.url}/invoices`, { headers: viewer, redirect: "manual" });
    expect(page.status).toBe(503);
    expect(page.headers.get("retry-after")).toBe("2");
    const html = await page.text();
    expect(html).toContain('<meta http-equiv="refresh" content="2">');
    expect(html).toContain("Busy right now");
    // Security headers are on the refusal too.
    expect(page.headers.get("x-frame-options")).toBe("DENY");

    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);

    release();
    expect((await held).status).toBe(200);
    await vi.waitFor(async () => expect((await fetch(`${server.url}/api/currencies`, { headers: viewer })).status).toBe(200), {
      timeout: 5_000,
    });
  });
});
