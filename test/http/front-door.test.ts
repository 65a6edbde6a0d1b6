import http, { type IncomingHttpHeaders } from "node:http";
import net from "node:net";
import { describe, expect, it, vi } from "vitest";
import { useConsoleWithProvider } from "./use-console-server";

/**
 * The server's front door (scripts/server/server.mjs, issue 16), through the real server. Places
 * (scripts/server/admission.mjs): with one place and no queue, a request held at the provider fills it, and
 * every other request is refused at once with a 503 and Retry-After, until the place comes free; probes and
 * static files still pass. Host names (scripts/server/allowed-hosts.mjs): only the console's own are answered,
 * so a page on a rebound DNS name cannot drive it.
 */
const { server, provider } = useConsoleWithProvider({
  REQUEST_MAX_CONCURRENCY: "1",
  OVERLOAD_MAX_WAIT_MS: "0",
  PUBLIC_URL: "http://console.example.test",
  ALLOWED_HOSTS: "ops.example.test",
  TRUSTED_PROXIES: "1",
});

describe("front door", () => {
  it("refuses work past its limit at once with 503 and Retry-After, lets probes through, and admits again when a place frees", async () => {
    const viewer = { cookie: server().sessions.roles.viewer };
    const release = provider().hold();
    const held = fetch(`${server().url}/api/invoices/inv_slow`, { headers: viewer });
    await vi.waitFor(() => expect(provider().requests.some((r) => r.url.includes("inv_slow"))).toBe(true), { timeout: 10_000 });

    const api = await fetch(`${server().url}/api/currencies`, { headers: viewer });
    expect(api.status).toBe(503);
    expect(api.headers.get("retry-after")).toBe("2");
    expect(api.headers.get("content-type")).toContain("application/problem+json");
    expect(await api.json()).toMatchObject({ status: 503, code: "overloaded", title: "Busy right now" });

    const page = await fetch(`${server().url}/invoices`, { headers: viewer, redirect: "manual" });
    expect(page.status).toBe(503);
    expect(page.headers.get("retry-after")).toBe("2");
    const html = await page.text();
    expect(html).toContain('<meta http-equiv="refresh" content="2">');
    expect(html).toContain("Busy right now");
    // Security headers are on the refusal too.
    expect(page.headers.get("x-frame-options")).toBe("DENY");

    expect((await fetch(`${server().url}/api/health`)).status).toBe(200);

    release();
    expect((await held).status).toBe(200);
    await vi.waitFor(async () => expect((await fetch(`${server().url}/api/currencies`, { headers: viewer })).status).toBe(200), {
      timeout: 5_000,
    });
  });
});

/** A GET that sends Host as given, or none (fetch() always sends its own). */
function get(path: string, headers: Record<string, string>): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${server().url}${path}`, { headers, setHost: false }, (answer) => {
      let body = "";
      answer.on("data", (chunk) => (body += chunk));
      answer.on("end", () => resolve({ status: answer.statusCode!, headers: answer.headers, body }));
    });
    request.on("error", reject);
  });
}

/** The status of an HTTP/1.0 GET without Host, as a load balancer's plain health check sends it. */
function statusOfHttp10(path: string): Promise<number> {
  const { port } = new URL(server().url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), "127.0.0.1", () => socket.write(`GET ${path} HTTP/1.0\r\n\r\n`));
    let received = "";
    socket.on("data", (chunk) => (received += chunk));
    socket.on("error", reject);
    socket.on("close", () => resolve(Number(/^HTTP\/1\.1 (\d{3}) /.exec(received)?.[1])));
  });
}

describe("host names (DNS rebinding)", () => {
  it("answers PUBLIC_URL's host, ALLOWED_HOSTS' names, loopback names and IP addresses, with any port", async () => {
    const { port } = new URL(server().url);
    for (const host of [
      `console.example.test:${port}`,
      "CONSOLE.example.test",
      "ops.example.test",
      `localhost:${port}`,
      `app.localhost:${port}`,
      `127.0.0.1:${port}`,
      `[::1]:${port}`,
    ]) {
      expect((await get("/login", { host })).status, host).toBe(200);
    }
  });

  it("answers any other host 421, saying which setting would allow it, before any page or route runs", async () => {
    const { port } = new URL(server().url);
    for (const path of ["/login", "/api/invoices", "/sandbox/api/v1/currencies"]) {
      const answer = await get(path, { host: `evil.example:${port}`, cookie: server().sessions.roles.admin });
      expect(answer.status, path).toBe(421);
      expect(answer.headers["content-type"]).toBe("application/problem+json");
      expect(answer.headers["x-frame-options"]).toBe("DENY");
      expect(JSON.parse(answer.body)).toMatchObject({ status: 421, code: "misdirected_request" });
      expect(JSON.parse(answer.body).detail).toContain('"evil.example". If it should, add that name to ALLOWED_HOSTS');
    }
    // Behind a trusted proxy, the host it forwards is the one the app takes for its own: checked the same way.
    const forwarded = await get("/login", { host: "127.0.0.1", "x-forwarded-host": "evil.example" });
    expect(forwarded.status).toBe(421);
  });

  it("lets probes by address through, and gives a request without Host a 400 (HTTP/1.1) or its own address (HTTP/1.0)", async () => {
    const { port } = new URL(server().url);
    for (const path of ["/api/health", "/api/health/ready"]) expect((await get(path, { host: `10.0.0.7:${port}` })).status, path).toBe(200);
    expect((await get("/api/metrics", { host: `10.0.0.7:${port}` })).status).toBe(401);

    const missing = await get("/api/health", {});
    expect(missing.status).toBe(400);
    expect(JSON.parse(missing.body)).toMatchObject({ status: 400, code: "bad_request" });
    expect(await statusOfHttp10("/api/health")).toBe(200);
    expect((await get("/api/health", { host: "::1" })).status).toBe(400);
  });
});
