import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";

// A fresh, empty data folder and a free port for every run, so the server starts from the seed alone and
// beside anything else that listens (a console on 3000, another test run). Playwright loads this file in the
// runner and again in each worker; the runner chooses both and hands them to the workers (and to specs that
// want them) through E2E_RUN_DIR and E2E_PORT, and removes the folder when it exits, after the server has
// stopped. An E2E_RUN_DIR or E2E_PORT set by hand is used as it is (and the folder kept).
const runDir = (process.env.E2E_RUN_DIR ||= freshRunDir());
const dataDir = path.join(runDir, "data");
/** The test sessions test/prepare-console.ts writes before the server starts (e2e/fixtures.ts reads them). */
process.env.E2E_SESSIONS_FILE = path.join(runDir, "sessions.json");
const PORT = Number((process.env.E2E_PORT ||= announcedFreePort()));
const BASE_URL = `http://127.0.0.1:${PORT}`;

function freshRunDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "invoice-console-e2e-"));
  process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The config is read synchronously; a child process asks the OS for a free port and says which. */
function announcedFreePort(): string {
  const port = execFileSync(process.execPath, [
    "-e",
    "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})",
  ]).toString();
  console.log(`[e2e] the console under test listens on http://127.0.0.1:${port}`);
  return port;
}

// Playwright cannot download its browsers everywhere; a system Chromium is used when there is one.
const chromiumPath = process.env.CHROMIUM_PATH || (existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined);

const launchOptions = {
  executablePath: chromiumPath,
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
  ],
};

export default defineConfig({
  testDir: "e2e",
  testMatch: "*.spec.ts",
  // Test artefacts only; the JSON report sits beside it, and `npm test` keeps Vitest's report there too.
  outputDir: "test-results/e2e",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: [["list"], ["json", { outputFile: "test-results/e2e.json" }]],
  use: {
    baseURL: BASE_URL,
    screenshot: "only-on-failure",
    trace: "off",
  },
  projects: [
    {
      name: "chromium",
      testIgnore: ["*.noscript.spec.ts", "truth-screenshots.spec.ts"],
      use: { ...devices["Desktop Chrome"], launchOptions },
    },
    // The main journeys with scripts held back: what a person on a slow phone meets before they load.
    { name: "no-script", testMatch: "*.noscript.spec.ts", use: { ...devices["Desktop Chrome"], launchOptions, javaScriptEnabled: false } },
    // Pictures for a person to look at, not tests: only `npm run screenshots` runs them (into screenshots/).
    { name: "screenshots", testMatch: "truth-screenshots.spec.ts", default: false, use: { ...devices["Desktop Chrome"], launchOptions } },
  ],
  webServer: {
    // Serves the existing build as `npm start` does: `npm test` runs `next build` first; run it yourself before
    // `npm run test:e2e`. The database is prepared first, with the test sessions the access specs send.
    command: `node node_modules/tsx/dist/cli.mjs --conditions=react-server test/prepare-console.ts ${process.env.E2E_SESSIONS_FILE} && node scripts/server/server.mjs -H 127.0.0.1`,
    port: PORT,
    timeout: 180_000,
    reuseExistingServer: false,
    gracefulShutdown: { signal: "SIGTERM", timeout: 10_000 },
    env: {
      PORT: String(PORT),
      DATA_DIR: dataDir,
      // Set explicitly, even to empty (read as unset), so a DATABASE_URL in the shell cannot leak in.
      DATABASE_URL: process.env.E2E_DATABASE_URL ?? "",
    },
  },
});
