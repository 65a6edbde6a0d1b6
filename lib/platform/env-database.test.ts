import { afterEach, describe, expect, it, vi } from "vitest";

/** PostgreSQL's settings: pool size, statement timeout, and TLS from the URL's sslmode, checked at start. */
describe("DATABASE_POOL_MAX, DATABASE_STATEMENT_TIMEOUT_MS and DATABASE_URL's sslmode", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  const read = async (vars: Record<string, string | undefined>) => {
    vi.resetModules();
    for (const [name, value] of Object.entries(vars)) vi.stubEnv(name, value);
    return (await import("./env")).env();
  };

  it("default to 10 connections and a 30 s statement timeout", async () => {
    expect((await read({ DATABASE_POOL_MAX: undefined, DATABASE_STATEMENT_TIMEOUT_MS: undefined })).database).toEqual({
      poolMax: 10,
      statementTimeoutMs: 30_000,
    });
  });

  it("are read when set; a statement timeout of 0 means no limit", async () => {
    expect((await read({ DATABASE_POOL_MAX: "40", DATABASE_STATEMENT_TIMEOUT_MS: "0" })).database).toEqual({
      poolMax: 40,
      statementTimeoutMs: 0,
    });
  });

  it("stop the start with a message naming the variable when out of range", async () => {
    await expect(read({ DATABASE_POOL_MAX: "0" })).rejects.toThrow(/DATABASE_POOL_MAX/);
    await expect(read({ DATABASE_POOL_MAX: "ten" })).rejects.toThrow(/DATABASE_POOL_MAX/);
    await expect(read({ DATABASE_STATEMENT_TIMEOUT_MS: "-1" })).rejects.toThrow(/DATABASE_STATEMENT_TIMEOUT_MS: must be 0/);
  });

  it("accept the sslmodes node-postgres can honour and refuse the ones that fall back to plain text", async () => {
    for (const mode of ["disable", "require", "verify-ca", "verify-full"]) {
      expect((await read({ DATABASE_URL: `postgres://db.example/console?sslmode=${mode}` })).databaseUrl).toContain(mode);
    }
    await expect(read({ DATABASE_URL: "postgres://db.example/console?sslmode=prefer" })).rejects.toThrow(
      /DATABASE_URL: sslmode=prefer is not supported/,
    );
    await expect(read({ DATABASE_URL: "postgres://db.example/console?sslmode=strict" })).rejects.toThrow(
      /DATABASE_URL: sslmode must be one of disable, require, verify-ca, verify-full/,
    );
  });
});
