#!/usr/bin/env node
// The console's HTTP server: the Next.js build behind a thin Node layer. `npm start` runs it (after building
// when there is no build), and so do the tests, so they exercise what people run.
//
// The layer does the few things that must happen before Next.js sees a request, because Next.js either fails
// on them before proxy.ts runs or cannot know them at all:
//   - the host a request names (./allowed-hosts.mjs): PUBLIC_URL's, ALLOWED_HOSTS', loopback names and IP
//     addresses are answered, any other is a 421, so a page on a rebound DNS name cannot drive the console;
//   - the client's address, from the socket and TRUSTED_PROXIES (never from headers a client made up);
//   - a 405 problem for methods no route has (TRACE, CONNECT, …), a 404 for a path that is not valid
//     percent-encoding (Next.js answers both with a bare 500);
//   - the security headers on every answer, including Next.js's own errors and redirects;
//   - request bodies (./request-body.mjs), read whole before a request takes a place: at most
//     REQUEST_MAX_BODY_BYTES (413, before reading when Content-Length says so), within
//     REQUEST_BODY_TIMEOUT_SECONDS (408), so a slow or huge body costs one socket and no place or memory;
//   - the front door (./admission.mjs), two pools: a signed-in person's requests (a session cookie with a valid
//     signature) take one of REQUEST_MAX_CONCURRENCY places, everybody else's (sign-in, the webhook inbox,
//     the sandbox's public API) one of ANONYMOUS_MAX_CONCURRENCY, at most half of them per address, so no
//     number of anonymous clients can refuse a signed-in person; a few wait for at most OVERLOAD_MAX_WAIT_MS,
//     the rest are refused at once with a 503 and Retry-After;
//   - one JSON log line per request when LOG_FORMAT=json (method, route, status, duration, upstream calls);
//   - graceful shutdown on SIGTERM (and SIGINT): new work is refused with a fast 503, requests in flight
//     finish (for at most SHUTDOWN_GRACE_SECONDS), then the app lets go of its database; one log line.
//
//   PORT=4000 node scripts/server/server.mjs [-H 127.0.0.1]
import { AsyncLocalStorage } from "node:async_hooks";
import { randomBytes, randomUUID } from "node:crypto";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createLogger } from "../../lib/platform/observability/pino.mjs";
import { invalidConfiguration, readServerSettings } from "../../lib/platform/server-settings.mjs";
import { withTelemetryDefault } from "../next-telemetry.mjs";
import { bypassesAdmission, createAdmission } from "./admission.mjs";
import { createHostCheck, hostRefusal } from "./allowed-hosts.mjs";
import { busy, givenBackWithHeaders, problem, SECURITY_HEADERS, withSecurityHeaders } from "./answers.mjs";
import { requestIdOf, rewriteForwardedHeaders } from "./forwarded.mjs";
import { createServerMetrics } from "./metrics.mjs";
import { closeAfterRefusal, hasBody, readBody, withBody } from "./request-body.mjs";
import { logRequest, routeMatcher } from "./request-log.mjs";

withTelemetryDefault();
process.env.NODE_ENV = "production";
// The upstream client (lib/console/upstream/client.ts) inflates compressed answers with undici's decompress
// interceptor, which Node.js announces as experimental on every start: a warning nobody running the console
// can act on. That one warning, by its text, is dropped; every other still prints.
const emitWarning = process.emitWarning;
process.emitWarning = (warning, ...rest) => {
  const type = typeof rest[0] === "string" ? rest[0] : rest[0]?.type;
  const text = typeof warning === "string" ? warning : warning?.message;
  if (type === "ExperimentalWarning" && String(text).startsWith("DecompressInterceptor is experimental")) return;
  return emitWarning.call(process, warning, ...rest);
};
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

const read = readServerSettings(process.env);
if (!read.settings) {
  console.error(invalidConfiguration(read.problems));
  process.exit(1);
}
const { settings } = read;
const port = settings.port;
const hostname = hostnameArgument(process.argv.slice(2)) ?? process.env.HOSTNAME ?? undefined;
const trustedProxies = settings.trustedProxies;
const logJson = settings.logFormat === "json";
const hosts = createHostCheck({ publicUrl: settings.publicUrl, allowedHosts: settings.allowedHosts });
if ("error" in hosts) {
  console.error(invalidConfiguration([hosts.error]));
  process.exit(1);
}
const shutdownGraceMs = settings.shutdownGraceMs;
const requestLimit = settings.requestMaxConcurrency;
const maxWaitMs = settings.overloadMaxWaitMs;
const anonymousLimit = settings.anonymousMaxConcurrency;
const admission = {
  people: createAdmission({ limit: requestLimit, queue: requestLimit, maxWaitMs }),
  anonymous: createAdmission({
    limit: anonymousLimit,
    queue: anonymousLimit,
    maxWaitMs,
    perKey: Math.max(1, Math.ceil(anonymousLimit / 2)),
  }),
};
// Before Next.js starts, so the app's bundles add their metrics to this process's one registry.
const metrics = createServerMetrics(admission);
const bodyLimits = { limit: settings.requestMaxBodyBytes, timeoutMs: settings.requestBodyTimeoutMs };
/** Answers streamed for as long as a download lasts (lib/console/invoices/export-response.ts). */
const STREAMED_DOWNLOADS = new Set(["/api/invoices/export"]);
/** Shared with the app (lib/platform/server-lifecycle.ts), which runs in this process but loads its modules apart. */
const layer = (globalThis.__invoiceConsoleServer = {
  draining: false,
  requests: new AsyncLocalStorage(),
  internalToken: randomBytes(24).toString("base64url"),
  onShutdown: undefined,
  /** Registered by the app at start (lib/platform/server-lifecycle.ts): whether a Cookie header holds a validly signed session. */
  isSignedIn: undefined,
  /** Called by instrumentation.ts once the app's start (database, migrations, seed) is done. */
  started: () => {},
});
const appStarted = new Promise((resolve) => (layer.started = resolve));
const INTERNAL_REQUEST_HEADER = "x-invoice-console-internal";
const logger = createLogger({ json: logJson, requestId: () => layer.requests.getStore()?.requestId });
layer.logger = logger; // the app's log.ts writes through a child of it: one pino per process

/** Methods some route answers; anything else is refused here with 405 (RFC 9110 §15.5.6). */
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

const { default: next } = await import("next");
const app = next({ dev: false, dir: root, hostname, port });
const handle = app.getRequestHandler();
await app.prepare();

const routeOf = routeMatcher(root);
/** Requests whose answer is not yet complete; shutdown waits for them. */
let inFlight = 0;
let onIdle = () => {};

// Headers must arrive within 10 s (checked every second, not Node.js's default of 30): a client that trickles
// them holds a socket, never a place, and not for long. Bodies have their own deadline, above. A request
// without Host is answered by hostRefusal, with the same headers as everything else.
const server = http.createServer(
  { headersTimeout: 10_000, requestTimeout: 120_000, connectionsCheckingInterval: 1_000, requireHostHeader: false },
  async (req, res) => {
    const started = performance.now();
    const requestId = requestIdOf(req, trustedProxies);
    req.headers["x-request-id"] = requestId;
    // A trace is continued only from a trusted proxy or the console's own call to its sandbox (ARCHITECTURE.md
    // §2): a client's traceparent would choose the console's trace, its baggage would go on to the provider.
    if (trustedProxies === 0 && req.headers[INTERNAL_REQUEST_HEADER] !== layer.internalToken)
      for (const name of ["traceparent", "tracestate", "baggage"]) delete req.headers[name];
    res.setHeader("x-request-id", requestId);
    const record = { upstreamCalls: 0, requestId };
    inFlight += 1;
    res.once("close", () => {
      inFlight -= 1;
      const route = routeOf((req.url ?? "/").split("?")[0]);
      metrics.request(req.method, route, res.statusCode, (performance.now() - started) / 1000);
      if (logJson)
        logRequest(logger, req, res, { started, record, route, internal: req.headers[INTERNAL_REQUEST_HEADER] === layer.internalToken });
      if (inFlight === 0) onIdle();
    });
    withSecurityHeaders(res, () => layer.draining);
    if (layer.draining && req.headers[INTERNAL_REQUEST_HEADER] !== layer.internalToken) {
      metrics.refused("any", "shutting_down");
      // The console's own calls to its embedded sandbox (requests in flight need them) are still served.
      return problem(
        res,
        503,
        { code: "shutting_down", title: "The console is restarting", detail: "This instance is shutting down. Try again in a moment." },
        { "retry-after": "1", connection: "close" },
      );
    }
    const wrongHost = hostRefusal(req, { hosts, trustedProxies });
    if (wrongHost) return problem(res, wrongHost.status, wrongHost);
    // `OPTIONS *` asks what the server as a whole answers (RFC 9110 §9.3.7): the methods, and nothing else.
    if (req.url === "*") {
      return void res.writeHead(204, { allow: METHODS.join(", ") }).end();
    }
    if (!METHODS.includes(req.method ?? "")) {
      return problem(
        res,
        405,
        { code: "method_not_allowed", title: "Method not allowed", detail: `${req.method} is not answered here.` },
        { allow: METHODS.join(", ") },
      );
    }
    const pathname = (req.url ?? "/").split("?")[0];
    if (!decodes(pathname)) {
      const isApi = pathname.startsWith("/api/") || pathname.startsWith("/sandbox/");
      const detail = /\/invoices\/[^/]+$/.test(pathname) ? "No invoice has this id." : "Nothing is at this address.";
      if (isApi)
        return problem(res, 404, { code: "not_found", title: "Not found", detail: `${detail} The path is not valid percent-encoding.` });
      res.writeHead(404, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
      return res.end(
        `<!doctype html><html lang="en"><title>Not found · Invoice Console</title><h1>Not found</h1><p>${detail} <a href="/invoices">Go to the invoices</a>.</p></html>`,
      );
    }
    rewriteForwardedHeaders(req, trustedProxies);
    if (hasBody(req)) {
      const read = await readBody(req, bodyLimits);
      if ("gone" in read) return res.destroy();
      if ("refused" in read) {
        closeAfterRefusal(req, res, read.refused);
        return read.refused === 413
          ? problem(
              res,
              413,
              {
                code: "body_too_large",
                title: "The request body is too large",
                detail: `A request body may be at most ${bodyLimits.limit} bytes.`,
              },
              { connection: "close" },
            )
          : problem(
              res,
              408,
              {
                code: "request_timeout",
                title: "The request body took too long",
                detail: `The body did not arrive within ${bodyLimits.timeoutMs / 1000} s. Send it again.`,
              },
              { connection: "close" },
            );
      }
      req = withBody(req, read.body);
    }
    // The console's own calls to its embedded sandbox are bounded by UPSTREAM_MAX_CONCURRENCY instead: refusing
    // them here would only fail requests already admitted.
    if (req.headers[INTERNAL_REQUEST_HEADER] !== layer.internalToken && !bypassesAdmission(pathname)) {
      const gaveUp = new AbortController();
      res.once("close", () => gaveUp.abort());
      const signedIn = layer.isSignedIn?.(req.headers.cookie ?? "") ?? true;
      const leave = await (signedIn
        ? admission.people.enter(gaveUp.signal)
        : admission.anonymous.enter(gaveUp.signal, req.headers["x-forwarded-for"]));
      if (!leave) {
        if (res.closed) return;
        metrics.refused(signedIn ? "people" : "anonymous", "busy");
        return busy(res, pathname);
      }
      if (res.closed) return leave(); // the client gave up as its turn came
      res.once("close", leave);
      // A download streams for as long as the reader takes: its place is given back once its headers are out
      // (each of its calls to the invoicing API still takes a slot of UPSTREAM_MAX_CONCURRENCY).
      if (STREAMED_DOWNLOADS.has(pathname)) givenBackWithHeaders(res, leave);
    }
    return layer.requests.run(record, () => handle(req, res));
  },
);
server.keepAliveTimeout = 65_000;
// What Node.js refuses before any handler runs (headers over its 16 KB limit, a request it cannot parse) is
// answered here, with the same headers as everything else.
server.on("clientError", (error, socket) => {
  if (!socket.writable || error.code === "ECONNRESET") return socket.destroy();
  const [status, reason, code] =
    error.code === "HPE_HEADER_OVERFLOW"
      ? [431, "Request Header Fields Too Large", "headers_too_large"]
      : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? [408, "Request Timeout", "request_timeout"]
        : [400, "Bad Request", "bad_request"];
  // Refused before any handler ran, so before a request id was given: this answer gets one of its own.
  const request_id = randomUUID();
  const body = JSON.stringify({ type: `urn:invoice-console:problem:${code}`, title: reason, status, code, request_id });
  const headers = Object.entries({
    ...SECURITY_HEADERS,
    "x-request-id": request_id,
    "content-type": "application/problem+json",
    "content-length": Buffer.byteLength(body),
    connection: "close",
  });
  socket.end(`HTTP/1.1 ${status} ${reason}\r\n${headers.map(([k, v]) => `${k}: ${v}`).join("\r\n")}\r\n\r\n${body}`);
});
server.on("error", (error) => {
  console.error(
    error.code === "EADDRINUSE" ? `Port ${port} is in use by another program: stop it, or choose another port with PORT=…` : error,
  );
  process.exit(1);
});

server.listen(port, hostname, () => {
  const origin = `http://${hostname ?? "localhost"}:${port}`;
  console.log(
    `Invoice Console listening on ${origin}${trustedProxies ? ` (trusting ${trustedProxies} proxy hop${trustedProxies === 1 ? "" : "s"})` : ""}; preparing the database (${process.env.INVOICING_API_URL ? "on a first start it is created" : "on a first start it is created and the demo data filled: about half a minute"})…`,
  );
  appStarted.then(() => console.log(`Ready on ${origin}`));
});

for (const signal of ["SIGINT", "SIGTERM"]) process.once(signal, () => shutDown(signal));

/**
 * Stops taking work (readiness answers 503, new requests a fast 503 with Connection: close), lets the requests
 * in flight finish for at most SHUTDOWN_GRACE_SECONDS, then closes every connection; meanwhile the app's hook
 * hands back claimed webhooks and, once drained, closes the database. Ends with one log line. A second
 * signal ends the process at once.
 */
async function shutDown(signal) {
  const started = performance.now();
  layer.draining = true;
  for (const again of ["SIGINT", "SIGTERM"]) process.once(again, () => process.exit(1));
  server.closeIdleConnections();
  const inFlightAtSignal = inFlight;
  let cutOff = 0;
  const drained = new Promise((resolve) => {
    const deadline = setTimeout(() => {
      cutOff = inFlight;
      resolve();
    }, shutdownGraceMs);
    onIdle = () => {
      clearTimeout(deadline);
      resolve();
    };
    if (inFlight === 0) onIdle();
  }).then(() => {
    server.close();
    server.closeAllConnections();
  });
  let app = {};
  try {
    // Bounded too: a database that does not answer must not keep the process from ending.
    app =
      (await Promise.race([
        layer.onShutdown?.(drained, shutdownGraceMs) ?? drained.then(() => ({})),
        drained.then(() => new Promise((resolve) => setTimeout(() => resolve({ database: "did not close within 5 s" }), 5_000).unref())),
      ])) ?? {};
  } catch (error) {
    app = { error: String(error?.message ?? error) };
  }
  const fields = {
    signal,
    duration_ms: Math.round(performance.now() - started),
    requests_finished: inFlightAtSignal - cutOff,
    requests_cut_off: cutOff,
    ...app,
  };
  if (logJson) logger[cutOff ? "warn" : "info"](fields, "shutdown");
  else
    console.log(
      `Invoice Console stopped on ${signal} in ${fields.duration_ms} ms: ${Object.entries(fields)
        .slice(2)
        .map(([k, v]) => `${k.replaceAll("_", " ")} ${v}`)
        .join(", ")}.`,
    );
  process.exit(0);
}

// ---------------------------------------------------------------------------------------------------------

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
