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
