// The answers the server layer gives itself, before or around Next.js: the security headers every answer
// carries, problems (application/problem+json), and "busy".

/** Set on every answer unless the app set its own (pages get a CSP with a nonce from proxy.ts). */
export const SECURITY_HEADERS = {
  "content-security-policy": "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "strict-origin-when-cross-origin",
  "x-frame-options": "DENY",
  "permissions-policy": "camera=(), microphone=(), geolocation=()",
};

/** Seconds a refused client is asked to wait before it tries again. */
const BUSY_RETRY_SECONDS = 2;

/** Calls `leave` as the answer's headers go out (a streamed download gives its place back then). */
export function givenBackWithHeaders(res, leave) {
  const writeHead = res.writeHead;
  res.writeHead = function (...args) {
    leave();
    return writeHead.apply(this, args);
  };
}

/** Adds whatever security header the answer does not already carry, at the moment its headers are sent. */
export function withSecurityHeaders(res, isDraining) {
  const writeHead = res.writeHead;
  res.writeHead = function (...args) {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) if (!res.hasHeader(name)) res.setHeader(name, value);
    // While draining, no connection is kept for another request.
    if (isDraining()) res.setHeader("connection", "close");
    return writeHead.apply(this, args);
  };
}

/** A problem+json answer (lib/contract/problem.ts's shape) with the request's id. */
export function problem(res, status, { code, title, detail }, headers = {}) {
  res.writeHead(status, { "content-type": "application/problem+json", "cache-control": "no-store", ...headers });
  const request_id = res.getHeader("x-request-id");
  res.end(JSON.stringify({ type: `urn:invoice-console:problem:${code}`, title, status, detail, code, request_id }));
}

/**
 * The front door is full: a problem with Retry-After for API callers (the UI shows "busy, retrying"), and for a
 * person loading a page, a page that says so and loads itself again.
 */
export function busy(res, pathname) {
  const headers = { "retry-after": String(BUSY_RETRY_SECONDS) };
  const detail = `The console is answering as many requests as it can. Try again in ${BUSY_RETRY_SECONDS} s.`;
  if (pathname.startsWith("/api/") || pathname.startsWith("/sandbox/")) {
    return problem(res, 503, { code: "overloaded", title: "Busy right now", detail }, headers);
  }
  res.writeHead(503, { ...headers, "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
  res.end(
    `<!doctype html><html lang="en"><meta http-equiv="refresh" content="${BUSY_RETRY_SECONDS}"><title>Busy · Invoice Console</title><h1>Busy right now</h1><p>${detail} This page loads again by itself.</p></html>`,
  );
}
