import "server-only";
import { readFileSync } from "node:fs";
import type { ConnectionOptions } from "node:tls";

/**
 * TLS to PostgreSQL from the URL's `sslmode`, as libpq reads it, for node-postgres (which, given a URL, would
 * read `sslmode` its own way and override any `ssl` option): the URL is passed on without its TLS parameters
 * and `ssl` is set from them.
 *
 * - absent or `disable`: no TLS;
 * - `require`: encrypted, the server's certificate not checked (libpq's meaning; with `sslrootcert`, as `verify-ca`);
 * - `verify-ca`: encrypted, the certificate signed by a trusted CA (`sslrootcert`, else the system's), any host name;
 * - `verify-full`: encrypted, the certificate trusted and issued for the URL's host. Use this one.
 *
 * `allow` and `prefer` (try one, fall back to the other) are refused: node-postgres cannot fall back, and a
 * setting that silently means "maybe encrypted" is the unsafe kind.
 * `sslrootcert`, `sslcert`, `sslkey`: files (PEM) read at connection.
 */
export const SSL_MODES = ["disable", "require", "verify-ca", "verify-full"] as const;
export type SslMode = (typeof SSL_MODES)[number];

const TLS_PARAMETERS = ["sslmode", "sslrootcert", "sslcert", "sslkey", "uselibpqcompat"];

/** The URL's sslmode, or a sentence saying what is wrong with it (for the configuration's error message). */
export function sslModeOf(url: string): { mode: SslMode } | { error: string } {
  const given = new URL(url).searchParams.get("sslmode");
  if (given === null || given === "") return { mode: "disable" };
  if ((SSL_MODES as readonly string[]).includes(given)) return { mode: given as SslMode };
  if (given === "allow" || given === "prefer")
    return {
      error: `sslmode=${given} is not supported (it falls back to an unencrypted connection): use sslmode=verify-full, require or disable`,
    };
  return { error: `sslmode must be one of ${SSL_MODES.join(", ")}, not ${JSON.stringify(given)}` };
}

export function postgresConnection(url: string): { connectionString: string; ssl: false | ConnectionOptions } {
  const parsed = new URL(url);
  const sslMode = sslModeOf(url);
  if ("error" in sslMode) throw new Error(`DATABASE_URL: ${sslMode.error}`);
  const file = (name: string) => {
    const at = parsed.searchParams.get(name);
    return at ? readFileSync(at, "utf8") : undefined;
  };
  const ca = file("sslrootcert");
  const cert = file("sslcert");
  const key = file("sslkey");
  for (const name of TLS_PARAMETERS) parsed.searchParams.delete(name);
  const connectionString = parsed.toString();
  const { mode } = sslMode;
  if (mode === "disable") return { connectionString, ssl: false };
  const files = { ...(ca ? { ca } : {}), ...(cert ? { cert } : {}), ...(key ? { key } : {}) };
  if (mode === "verify-full") return { connectionString, ssl: { ...files, rejectUnauthorized: true } };
  if (mode === "verify-ca" || (mode === "require" && ca))
    return { connectionString, ssl: { ...files, rejectUnauthorized: true, checkServerIdentity: () => undefined } };
  return { connectionString, ssl: { ...files, rejectUnauthorized: false } };
}
