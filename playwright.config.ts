import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";

const PORT = 3100;
const BASE_URL = `http://127.0.0.1:${PORT}`;

// A fresh, empty data folder for every run, so the server starts from the seed alone. Playwright loads this
// file in the runner and again in each worker; the runner makes the folder and hands it to the workers (and
// to specs that want it) through E2E_DATA_DIR, and removes it when it exits, after the server has stopped.
// An E2E_DATA_DIR set by hand is used as it is and kept.
const dataDir = (process.env.E2E_DATA_DIR ||= freshDataDir());

function freshDataDir(): string {
  const runDir = mkdtempSync(path.join(os.tmpdir(), "invoice-console-e2e-"));
  process.on("exit", () => rmSync(runDir, { recursive: true, force: true }));
  return path.join(runDir, "data");
}

// Playwright cannot download its browsers everywhere; a system Chromium is used when there is one.
const chromiumPath = process.env.CHROMIUM_PATH || (existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined);

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
      use: {
        ...devices["Desktop Chrome"],
        launchOptions: {
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
        },
      },
    },
  ],
  webServer: {
    // Serves the existing build: `npm test` runs `next build` first; run it yourself before `npm run test:e2e`.
    command: `node_modules/.bin/next start -p ${PORT} -H 127.0.0.1`,
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
