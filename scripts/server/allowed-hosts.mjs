// The hosts the console answers to (ARCHITECTURE.md §4). A browser sends, in Host, the name it looked up; a page on
// a name the attacker's DNS points first at itself and then at the console (DNS rebinding) would otherwise drive
// the console from that page as its own origin. So only these names are answered: PUBLIC_URL's host, the names
// in ALLOWED_HOSTS, loopback names (localhost, *.localhost, which browsers resolve themselves) and IP literals
// (no rebinding goes through an address: it needs a name to rebind), each with any port.
import { isIPv4, isIPv6 } from "node:net";

/** A DNS name: labels of letters, digits, hyphens and underscores, at most 253 characters, a final dot allowed. */
const HOST_NAME = /^(?=.{1,254}$)[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*\.?$/;
/** A Host header: a name or IPv4 address, or an IPv6 address in brackets; then an optional port (1–5 digits). */
const HOST_HEADER = /^(\[[0-9a-f:.%a-z_-]+\]|[^[\]:]+)(?::(\d{1,5}))?$/;

/**
 * @param {{ publicUrl?: string, allowedHosts?: string }} settings PUBLIC_URL and ALLOWED_HOSTS as set
 * @returns {{ allows(header: string): boolean, nameOf(header: string): string | null } | { error: string }}
 *   `allows`: whether a Host header (or an X-Forwarded-Host value) names this console; `nameOf`: the host it
 *   names (lower case, without port or final dot), null when it names none. `error`: what is wrong with
 *   ALLOWED_HOSTS.
 */
export function createHostCheck({ publicUrl, allowedHosts = "" }) {
  const names = new Set();
  const entries = allowedHosts
    .split(",")
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean);
  for (const entry of entries) {
    if (!HOST_NAME.test(entry))
      return { error: `ALLOWED_HOSTS: "${entry}" is not a host name (list names without scheme or port, separated by commas)` };
    names.add(withoutFinalDot(entry));
  }
  // An invalid PUBLIC_URL is refused by the app's own settings (lib/platform/env.ts) as it starts.
  if (URL.canParse(publicUrl ?? "")) names.add(withoutFinalDot(new URL(publicUrl).hostname));
  /** The host a Host header names, lower case without port or final dot (an IPv6 address in brackets), or null. */
  const hostOf = (header) => {
    const match = HOST_HEADER.exec(header.trim().toLowerCase());
    if (!match || Number(match[2] ?? 0) > 65_535) return null;
    const name = match[1];
    if (name.startsWith("[")) return isIPv6(name.slice(1, -1)) ? name : null;
    return isIPv4(name) || HOST_NAME.test(name) ? withoutFinalDot(name) : null;
  };
  return {
    nameOf: hostOf,
    allows(header) {
      const host = hostOf(header);
      if (host === null) return false;
      if (host.startsWith("[") || isIPv4(host)) return true;
      return host === "localhost" || host.endsWith(".localhost") || names.has(host);
    },
  };
}

function withoutFinalDot(name) {
  return name.endsWith(".") ? name.slice(0, -1) : name;
}

/**
 * DNS rebinding: a 421 problem for a request that names a host this console does not answer
 * to, a 400 for one whose host is missing or no host at all (RFC 9112 §3.2); nothing when it may pass. The host
 * checked is the one the app takes for its own (proxy.ts, lib/console/bff/route.ts): behind a trusted proxy that
 * sends X-Forwarded-Host, every host in it, and Host then names only the proxy's way here (an upstream name or
 * address) and is not checked; otherwise Host. A proxy that rewrites Host to an address and sends no
 * X-Forwarded-Host leaves nothing to check by name: it must check the host itself (docs/operations.md, "Running in
 * production"). An HTTP/1.0 request without Host (a load balancer's plain health check; no browser sends one) is
 * given the address it arrived at, so the app sees one. A request target that is not a path (absolute-form,
 * `GET http://evil.example/`, whose authority would override Host: RFC 9112 §3.2.2) is a 400: browsers and
 * reverse proxies send a path, and the rest of this layer and the app route by it.
 */
export function hostRefusal(req, { hosts, trustedProxies }) {
  const url = req.url ?? "";
  if (!url.startsWith("/") && !(req.method === "OPTIONS" && url === "*")) {
    return {
      status: 400,
      code: "bad_request",
      title: "Not a path",
      detail: "The request target must be a path (origin-form, RFC 9112 §3.2.1), as a browser sends it, not a full URL.",
    };
  }
  // Node.js keeps the first of two Host headers; RFC 9112 §3.2 says such a request is refused, not guessed at.
  if (req.rawHeaders.filter((name, at) => at % 2 === 0 && name.toLowerCase() === "host").length > 1) {
    return { status: 400, code: "bad_request", title: "Two hosts named", detail: "The request has more than one Host header." };
  }
  if (req.headers.host === undefined && req.httpVersion === "1.0") {
    const { localAddress = "127.0.0.1", localPort } = req.socket;
    req.headers.host = `${isIPv6(localAddress) ? `[${localAddress}]` : localAddress}:${localPort}`;
  }
  const forwarded = trustedProxies > 0 ? req.headers["x-forwarded-host"] : undefined;
  const [header, named] = forwarded ? ["X-Forwarded-Host", String(forwarded).split(",")] : ["Host", [req.headers.host ?? ""]];
  const refused = named.map((host) => host.trim()).find((host) => !hosts.allows(host));
  if (refused === undefined) return undefined;
  const name = hosts.nameOf(refused);
  if (name === null) {
    return {
      status: 400,
      code: "bad_request",
      title: "No host named",
      detail: `The request's ${header} header is missing or not a host name. Send the console's own host name, as a browser does.`,
    };
  }
  return {
    status: 421,
    code: "misdirected_request",
    title: "Not this console's host name",
    detail: `This console does not answer to ${JSON.stringify(name)}. If it should, add that name to ALLOWED_HOSTS (or make it PUBLIC_URL's host).`,
  };
}
