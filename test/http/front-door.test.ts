import http, { type IncomingHttpHeaders } from "node:http";
import net from "node:net";
import { describe, expect, it, vi } from "vitest";
import { useConsoleServer, useConsoleWithProvider } from "./use-console-server";

/**
 * The server's front door (scripts/server/server.mjs), through the real server. Places
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

type Answer = { status: number; headers: IncomingHttpHeaders; body: string };

/** A request to `base` that sends Host as given, or none (fetch() always sends its own). */
function send(base: string, path: string, headers: Record<string, string>, { method = "GET", body = "" } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${base}${path}`, { method, headers, setHost: false }, (answer) => {
      let text = "";
      answer.on("data", (chunk) => (text += chunk));
      answer.on("end", () => resolve({ status: answer.statusCode!, headers: answer.headers, body: text }));
    });
    request.on("error", reject);
    request.end(body);
  });
}

const get = (path: string, headers: Record<string, string>) => send(server().url, path, headers);

/** The status of a request written on the socket as given (HTTP/1.0 without Host, a full URL as the target, …). */
function statusOfRaw(raw: string): Promise<number> {
  const { port } = new URL(server().url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), "127.0.0.1", () => socket.write(raw));
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
    const admin = server().sessions.roles.admin;
    for (const path of ["/login", "/api/invoices/inv_rebound", "/sandbox/api/v1/currencies"]) {
      const answer = await get(path, { host: `evil.example:${port}`, cookie: admin });
      expect(answer.status, path).toBe(421);
      expect(answer.headers["content-type"]).toBe("application/problem+json");
      expect(answer.headers["x-frame-options"]).toBe("DENY");
      expect(JSON.parse(answer.body)).toMatchObject({ status: 421, code: "misdirected_request" });
      expect(JSON.parse(answer.body).detail).toContain('"evil.example". If it should, add that name to ALLOWED_HOSTS');
    }
    // No route ran: the provider was never asked, as it is for the same request to an allowed host.
    const reachedProvider = () => provider().requests.some((r) => r.url.includes("inv_rebound"));
    expect(reachedProvider()).toBe(false);
    expect((await get("/api/invoices/inv_rebound", { host: `127.0.0.1:${port}`, cookie: admin })).status).toBe(404);
    expect(reachedProvider()).toBe(true);
    // Behind a trusted proxy, the host it forwards is the one the app takes for its own: checked the same way.
    const forwarded = await get("/login", { host: "127.0.0.1", "x-forwarded-host": "evil.example" });
    expect(forwarded.status).toBe(421);
  });

  it("behind a trusted proxy, checks the host it forwards, not the Host it sends to reach the console", async () => {
    // The proxy's own way here (an upstream name) is not a host people use: not checked when it forwards one.
    expect((await get("/login", { host: "console-upstream:3000", "x-forwarded-host": "console.example.test" })).status).toBe(200);
    expect((await get("/login", { host: "127.0.0.1", "x-forwarded-host": "console.example.test, evil.example" })).status).toBe(421);
    // A forwarded value that is no host at all is named as what it is.
    const bad = await get("/login", { host: "console.example.test", "x-forwarded-host": "a b" });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body).detail).toContain("The request's X-Forwarded-Host header is missing or not a host name");
    const badHost = await get("/login", { host: "localhost:99999" });
    expect(badHost.status).toBe(400);
    expect(JSON.parse(badHost.body).detail).toContain("The request's Host header is missing or not a host name");
  });

  it("answers a full URL as the request target 400, whatever host it names, since its host would override Host", async () => {
    const { port } = new URL(server().url);
    const host = `Host: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`;
    expect(await statusOfRaw(`GET /login HTTP/1.1\r\n${host}`)).toBe(200);
    expect(await statusOfRaw(`GET http://evil.example/login HTTP/1.1\r\n${host}`)).toBe(400);
    expect(await statusOfRaw(`GET http://127.0.0.1:${port}/login HTTP/1.1\r\n${host}`)).toBe(400);
    // `OPTIONS *` asks about the server as a whole: its methods, never a 500; `*` with another method is no path.
    expect(await statusOfRaw(`OPTIONS * HTTP/1.1\r\n${host}`)).toBe(204);
    expect(await statusOfRaw(`GET * HTTP/1.1\r\n${host}`)).toBe(400);
    expect(await statusOfRaw(`GET /login HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nHost: evil.example\r\nConnection: close\r\n\r\n`)).toBe(
      400,
    );
  });

  it("lets probes by address through, and gives a request without Host a 400 (HTTP/1.1) or its own address (HTTP/1.0)", async () => {
    const { port } = new URL(server().url);
    for (const path of ["/api/health", "/api/health/ready"]) expect((await get(path, { host: `10.0.0.7:${port}` })).status, path).toBe(200);
    expect((await get("/api/metrics", { host: `10.0.0.7:${port}` })).status).toBe(401);

    const missing = await get("/api/health", {});
    expect(missing.status).toBe(400);
    expect(JSON.parse(missing.body)).toMatchObject({ status: 400, code: "bad_request" });
    expect(await statusOfRaw("GET /api/health HTTP/1.0\r\n\r\n")).toBe(200);
    expect((await get("/api/health", { host: "::1" })).status).toBe(400);
  });
});

describe("without a trusted proxy (the default)", () => {
  const direct = useConsoleServer({ PUBLIC_URL: "http://console.example.test" });

  it("ignores a client's X-Forwarded-Host: neither checked nor taken as the console's own host", async () => {
    const { url, sessions } = direct();
    const { port } = new URL(url);
    const host = `127.0.0.1:${port}`;
    expect((await send(url, "/login", { host, "x-forwarded-host": "evil.example" })).status).toBe(200);
    // proxy.ts compares Origin with the host the app sees: had the made-up header reached it, this would pass.
    const change = await send(
      url,
      "/invoices",
      {
        host,
        "x-forwarded-host": "evil.example",
        origin: "http://evil.example",
        cookie: sessions.roles.admin,
        "content-type": "text/plain",
      },
      { method: "POST", body: "x" },
    );
    expect(change.status).toBe(403);
    expect(JSON.parse(change.body)).toMatchObject({ code: "cross_site_request" });
  });
});
