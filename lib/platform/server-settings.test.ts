import { spawnSync } from "node:child_process";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { readServerSettings } from "./server-settings.mjs";

/*
 * The server layer's settings are defined once (./server-settings.mjs): the server refuses a bad one before
 * Next.js starts, and the app's settings (./env.ts) read the same definitions, with the same words.
 */
describe("the server layer's settings", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  it("take their defaults when unset or empty, and whole numbers when set", () => {
    expect(readServerSettings({ PORT: "", LOG_FORMAT: "" }).settings).toEqual({
      port: 3000,
      trustedProxies: 0,
      publicUrl: undefined,
      allowedHosts: undefined,
      logFormat: "text",
      shutdownGraceMs: 10_000,
      requestMaxConcurrency: 16,
      anonymousMaxConcurrency: 16,
      overloadMaxWaitMs: 1_000,
      requestMaxBodyBytes: 1_048_576,
      requestBodyTimeoutMs: 10_000,
    });
    expect(readServerSettings({ PORT: "4000", TRUSTED_PROXIES: "2", SHUTDOWN_GRACE_SECONDS: "20" }).settings).toMatchObject({
      port: 4000,
      trustedProxies: 2,
      shutdownGraceMs: 20_000,
    });
  });

  it("name every variable that is wrong and what it must be", () => {
    const { settings, problems } = readServerSettings({
      PORT: "70000",
      REQUEST_MAX_CONCURRENCY: "1e3",
      LOG_FORMAT: "xml",
      PUBLIC_URL: "ftp://x",
    });
    expect(settings).toBeUndefined();
    expect(problems).toEqual([
      "PORT: must be a whole number from 1 to 65535",
      "PUBLIC_URL: must be the console's address, like https://console.example.com",
      "LOG_FORMAT: must be text or json",
      "REQUEST_MAX_CONCURRENCY: must be a whole number from 1 to 10000 (signed-in requests worked on at once)",
    ]);
  });

  it("are refused by the app with the same words, beside its own settings' problems", async () => {
    vi.stubEnv("TRUSTED_PROXIES", "-1");
    vi.stubEnv("UPSTREAM_TIMEOUT_MS", "5");
    await expect((await import("./env")).env).toThrow(
      /Invalid configuration:\n {2}TRUSTED_PROXIES: must be a whole number from 0 to 10 \(the reverse proxies in front of the console\)\n {2}UPSTREAM_TIMEOUT_MS: /,
    );
  });

  it("stop the server before Next.js starts, with one message naming the variable", () => {
    const root = path.resolve(import.meta.dirname, "../..");
    const run = spawnSync(process.execPath, ["scripts/server/server.mjs"], {
      cwd: root,
      env: { ...process.env, PORT: "0", OVERLOAD_MAX_WAIT_MS: "forever" },
      encoding: "utf8",
      timeout: 20_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      "Invalid configuration:\n  PORT: must be a whole number from 1 to 65535\n  OVERLOAD_MAX_WAIT_MS: must be a whole number from 0 to 30000 (how long a request waits for a free slot before a 503)",
    );
  });
});
