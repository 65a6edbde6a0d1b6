import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { postgresConnection } from "./postgres-connection";

/** TLS to PostgreSQL as libpq reads the URL's sslmode, handed to node-postgres as its `ssl` option. */
describe("postgresConnection", () => {
  const url = (query: string) => `postgres://console:secret@db.example:5432/console${query}`;

  it("no sslmode, or disable: no TLS, the URL as it was", () => {
    expect(postgresConnection(url(""))).toEqual({ connectionString: url(""), ssl: false });
    expect(postgresConnection(url("?sslmode=disable&application_name=console"))).toEqual({
      connectionString: url("?application_name=console"),
      ssl: false,
    });
  });

  it("require encrypts without checking the certificate; verify-full checks it and the host; verify-ca the CA only", () => {
    expect(postgresConnection(url("?sslmode=require"))).toEqual({ connectionString: url(""), ssl: { rejectUnauthorized: false } });
    expect(postgresConnection(url("?sslmode=verify-full"))).toEqual({ connectionString: url(""), ssl: { rejectUnauthorized: true } });
    const verifyCa = postgresConnection(url("?sslmode=verify-ca")).ssl;
    if (verifyCa === false) throw new Error("verify-ca must encrypt");
    expect(verifyCa.rejectUnauthorized).toBe(true);
    expect(verifyCa.checkServerIdentity).toBeTypeOf("function");
    expect(verifyCa.checkServerIdentity?.("another.host", {} as never)).toBeUndefined();
  });

  it("reads sslrootcert's file and leaves no TLS parameter in the URL (node-postgres would read them its own way)", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "pg-ca-"));
    const ca = path.join(dir, "ca.pem");
    writeFileSync(ca, "-----BEGIN CERTIFICATE-----\nfake\n-----END CERTIFICATE-----\n");
    const { connectionString, ssl } = postgresConnection(url(`?sslmode=verify-full&sslrootcert=${encodeURIComponent(ca)}`));
    expect(connectionString).toBe(url(""));
    expect(ssl).toEqual({ ca: expect.stringContaining("BEGIN CERTIFICATE"), rejectUnauthorized: true });
  });

  it("refuses allow and prefer", () => {
    expect(() => postgresConnection(url("?sslmode=prefer"))).toThrow(/sslmode=prefer is not supported/);
  });
});
