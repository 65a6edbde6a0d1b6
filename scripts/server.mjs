#!/usr/bin/env node
// The console's HTTP server: the Next.js build behind a thin Node layer. `npm start` runs it (after building
// when there is no build), and so do the tests, so they exercise what people run.
//
// The layer does the few things that must happen before Next.js sees a request, because Next.js either fails
// on them before proxy.ts runs or cannot know them at all:
//   - the client's address, from the socket and TRUSTED_PROXIES (never from headers a client made up);
//   - a 405 problem for methods no route has (TRACE, CONNECT, …), a 404 for a path that is not valid
//     percent-encoding (Next.js answers both with a bare 500);
//   - the security headers on every answer, including Next.js's own errors and redirects.
//
//   PORT=4000 node scripts/server.mjs [-H 127.0.0.1]
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";

process.env.NODE_ENV = "production";
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

const port = Number(process.env.PORT || 3000);
const hostname = hostnameArgument(process.argv.slice(2)) ?? process.env.HOSTNAME ?? undefined;
const trustedProxies = trustedProxyCount(process.env.TRUSTED_PROXIES);

/** Methods some route answers; anything else is refused here with 405 (RFC 9110 §15.5.6). */
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/** Set on every answer unless the app set its own (pages get a CSP with a nonce from proxy.ts). */
const SECURITY_HEADERS = {
  "content-security-policy": "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "strict-origin-when-cross-origin",
  "x-frame-options": "DENY",
  "permissions-policy": "camera=(), microphone=(), geolocation=()",
};

const { default: next } = await import("next");
const app = next({ dev: false, dir: root, hostname, port });
const handle = app.getRequestHandler();
await app.prepare();

const server = http.createServer((req, res) => {
  withSecurityHeaders(res);
  if (!METHODS.includes(req.method ?? "")) {
    return problem(res, 405, { code: "method_not_allowed", title: "Method not allowed", detail: `${req.method} is not answered here.` }, { allow: METHODS.join(", ") });
  }
  const pathname = (req.url ?? "/").split("?")[0];
  if (!decodes(pathname)) {
    const isApi = pathname.startsWith("/api/") || pathname.startsWith("/sandbox/");
    const detail = /\/invoices\/[^/]+$/.test(pathname) ? "No invoice has this id." : "Nothing is at this address.";
    if (isApi) return problem(res, 404, { code: "not_found", title: "Not found", detail: `${detail} The path is not valid percent-encoding.` });
    res.writeHead(404, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
    return res.end(`<!doctype html><html lang="en"><title>Not found · Invoice Console</title><h1>Not found</h1><p>${detail} <a href="/invoices">Go to the invoices</a>.</p></html>`);
  }
  rewriteForwardedHeaders(req);
  return handle(req, res);
});
server.keepAliveTimeout = 65_000;
// What Node.js refuses before any handler runs (headers over its 16 KB limit, a request it cannot parse) is
// answered here, with the same headers as everything else.
server.on("clientError", (error, socket) => {
  if (!socket.writable || error.code === "ECONNRESET") return socket.destroy();
  const [status, reason] = error.code === "HPE_HEADER_OVERFLOW" ? [431, "Request Header Fields Too Large"] : [400, "Bad Request"];
  const body = JSON.stringify({ type: "urn:invoice-console:problem:bad_request", title: reason, status, code: "bad_request" });
  const headers = Object.entries({ ...SECURITY_HEADERS, "content-type": "application/problem+json", "content-length": Buffer.byteLength(body), connection: "close" });
  socket.end(`HTTP/1.1 ${status} ${reason}\r\n${headers.map(([k, v]) => `${k}: ${v}`).join("\r\n")}\r\n\r\n${body}`);
});
server.on("error", (error) => {
  console.error(error.code === "EADDRINUSE" ? `Port ${port} is in use by another program: stop it, or choose another port with PORT=…` : error);
  process.exit(1);
});

server.listen(port, hostname, () => {
  console.log(`Invoice Console listening on http://${hostname ?? "localhost"}:${port}${trustedProxies ? ` (trusting ${trustedProxies} proxy hop${trustedProxies === 1 ? "" : "s"})` : ""}`);
});

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, () => {
    server.close(() => process.exit(0));
    server.closeIdleConnections();
    setTimeout(() => process.exit(0), 5_000).unref();
  });
}

// ---------------------------------------------------------------------------------------------------------

/**
 * X-Forwarded-For names the client only where a proxy we trust wrote it. With N trusted proxies, the client is
 * the address N hops left of the socket's; with none (the default) it is the socket's own. The result is the
 * only X-Forwarded-For the app sees. Forwarded host and protocol are kept only behind a trusted proxy; without
 * one, Next.js fills them in from the Host header and the socket.
 */
function rewriteForwardedHeaders(req) {
  const claimed = String(req.headers["x-forwarded-for"] ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  const chain = [...claimed, req.socket.remoteAddress ?? "unknown"];
  req.headers["x-forwarded-for"] = chain[Math.max(0, chain.length - 1 - trustedProxies)];
  if (trustedProxies === 0) {
    for (const name of ["x-forwarded-host", "x-forwarded-proto", "x-forwarded-port", "forwarded"]) delete req.headers[name];
  }
}

/** Adds whatever security header the answer does not already carry, at the moment its headers are sent. */
function withSecurityHeaders(res) {
  const writeHead = res.writeHead;
  res.writeHead = function (...args) {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) if (!res.hasHeader(name)) res.setHeader(name, value);
    return writeHead.apply(this, args);
  };
}

function problem(res, status, { code, title, detail }, headers = {}) {
  res.writeHead(status, { "content-type": "application/problem+json", "cache-control": "no-store", ...headers });
  res.end(JSON.stringify({ type: `urn:invoice-console:problem:${code}`, title, status, detail, code }));
}

function decodes(pathname) {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

function hostnameArgument(args) {
  const index = args.findIndex((arg) => arg === "-H" || arg === "--hostname");
  if (index >= 0) return args[index + 1];
  return args.find((arg) => arg.startsWith("--hostname="))?.slice("--hostname=".length);
}

function trustedProxyCount(value) {
  if (value === undefined || value === "") return 0;
  if (!/^\d+$/.test(value) || Number(value) > 10) {
    console.error(`Invalid configuration:\n  TRUSTED_PROXIES: must be a whole number from 0 to 10 (the reverse proxies in front of the console), not ${JSON.stringify(value)}`);
    process.exit(1);
  }
  return Number(value);
}
