// What a request says of where it came from, believed only as far as TRUSTED_PROXIES allows: the client's
// address and the request id (ARCHITECTURE.md §4). A client's own X-Forwarded-* or X-Request-Id is never taken.
import { randomUUID } from "node:crypto";

/**
 * X-Forwarded-For names the client only where a proxy we trust wrote it. With N trusted proxies, the client is
 * the address N hops left of the socket's; with none (the default) it is the socket's own. The result is the
 * only X-Forwarded-For the app sees. Forwarded host and protocol are kept only behind a trusted proxy; without
 * one, Next.js fills them in from the Host header and the socket.
 */
export function rewriteForwardedHeaders(req, trustedProxies) {
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

/**
 * X-Request-Id: the one a trusted proxy (TRUSTED_PROXIES) sent, when it is a plain token of at most 128
 * characters; otherwise, and always without a trusted proxy (a client's own would be believed), a new UUID.
 */
export function requestIdOf(req, trustedProxies) {
  const given = req.headers["x-request-id"];
  if (trustedProxies > 0 && typeof given === "string" && /^[A-Za-z0-9._:@/+=-]{1,128}$/.test(given)) return given;
  return randomUUID();
}
