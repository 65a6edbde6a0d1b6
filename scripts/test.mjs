#!/usr/bin/env node
// `npm test` (ARCHITECTURE.md §6): `npm run lint` (Biome, biome.jsonc), `next build`, then Vitest (whose test/http suites
// start the built console), then Playwright against the built console. Ends with one line, `N passed, N failed`
// (`, N skipped` when some were), counted from both runners' JSON reports, and exits non-zero when anything failed.
// The lint and the build are steps, not tests: each adds nothing to the line when it succeeds and counts as 1
// failed when it does not (the tests still run after a lint finding, so one run shows everything).
//
// TEST_ONLY=unit runs Vitest alone, without lint or build and so without test/http (CI's extra pass on PostgreSQL);
// then any arguments are Vitest filters,
// e.g. `TEST_ONLY=unit node scripts/test.mjs lib/sandbox`.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { stripVTControlCharacters } from "node:util";
import { withTelemetryDefault } from "./next-telemetry.mjs";
import { ensureChromium } from "./test-browser.mjs";

withTelemetryDefault();
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const resultsDir = path.join(root, "test-results");
const vitestReport = path.join(resultsDir, "vitest.json");
const e2eReport = path.join(resultsDir, "e2e.json"); // named in playwright.config.ts

const only = process.env.TEST_ONLY || "";
if (only !== "" && only !== "unit") fail(`TEST_ONLY must be unset or "unit", not "${only}".`);
const filters = process.argv.slice(2);
if (filters.length && only !== "unit") fail("arguments (Vitest filters) are accepted only with TEST_ONLY=unit.");

const totals = { passed: 0, failed: 0, skipped: 0 };
/** Each failed test's name and first line, repeated just before the last line: a CI log is often read by its tail. */
const failures = [];
let child;
let interrupted = false;

// Ctrl-C already reaches the child through the terminal's process group; SIGTERM is sent to this process
// alone, so pass it on. Either way, stop after the current step.
process.on("SIGINT", () => (interrupted = true));
process.on("SIGTERM", () => {
  interrupted = true;
  if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
});

mkdirSync(resultsDir, { recursive: true });

// 0. Lint and format check, the same as `npm run lint`.
if (only !== "unit") {
  const lint = await run("biome", ["check", "--error-on-warnings", "."]);
  if (lint.code !== 0) {
    note(`npm run lint failed (${describe(lint)}); counted as 1 failed. \`npx biome check --write .\` applies the safe fixes.`);
    add("lint", { passed: 0, failed: 1, skipped: 0 });
  } else {
    note("lint: no findings");
  }
}

// 1. Build first: the HTTP suites of Vitest (test/http) and the browser tests run against it.
let built = true;
if (only !== "unit" && !interrupted) {
  const build = await run("next", ["build"]);
  if (build.code !== 0) {
    note(`next build failed (${describe(build)}); counted as 1 failed, tests that need a build skipped.`);
    add("build", { passed: 0, failed: 1, skipped: 0 });
    built = false;
  }
}

// 2. Vitest (without a build, only the suites that do not need one)
if (!interrupted) {
  rmSync(vitestReport, { force: true });
  const vitest = await run("vitest", [
    "run",
    "--reporter=default",
    "--reporter=json",
    `--outputFile=${path.relative(root, vitestReport)}`,
    ...(only === "unit" || !built ? ["--exclude", "test/http/**"] : []),
    ...filters,
  ]);
  add("unit", countVitest(readJson(vitestReport), vitest));
}

// 3. Playwright, with a Chromium (./test-browser.mjs: installs Playwright's own when there is none)
if (only !== "unit" && built && !interrupted) {
  const specs = existsSync(path.join(root, "e2e")) ? readdirSync(path.join(root, "e2e")).filter((f) => f.endsWith(".spec.ts")) : [];
  if (specs.length === 0) {
    note("no e2e/*.spec.ts files; browser tests: 0 passed.");
  } else if (
    !(await ensureChromium({
      ownChromium: async () => (await import("@playwright/test")).chromium.executablePath(),
      install: async () => (await run("playwright", ["install", "chromium"])).code === 0,
      note,
    }))
  ) {
    add("browser", { passed: 0, failed: 1, skipped: 0 });
  } else {
    rmSync(e2eReport, { force: true });
    const e2e = await run("playwright", ["test", "--pass-with-no-tests"]);
    add("e2e", countPlaywright(readJson(e2eReport), e2e));
  }
}

if (interrupted) add("interrupted", { passed: 0, failed: 1, skipped: 0 });
for (const failure of failures) note(`failed: ${failure}`);

const line = `${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ""}`;
// The very last line of output: everything that printed before has exited.
process.stdout.write(`${line}\n`, () => process.exit(totals.failed > 0 ? 1 : 0));

// ---------------------------------------------------------------------------------------------------------

function run(bin, args) {
  const file = path.join(root, "node_modules", ".bin", process.platform === "win32" ? `${bin}.cmd` : bin);
  if (!existsSync(file)) {
    note(`${path.relative(root, file)} not found; run \`npm install\` first.`);
    return Promise.resolve({ code: 127, signal: null });
  }
  return new Promise((resolve) => {
    child = spawn(file, args, { cwd: root, stdio: "inherit", env: process.env, shell: process.platform === "win32" });
    child.on("error", (error) => {
      note(`could not run ${bin}: ${error.message}`);
      resolve({ code: 127, signal: null });
    });
    child.on("exit", (code, signal) => resolve({ code, signal }));
  });
}

/**
 * Vitest 4's JSON report: numPassedTests / numFailedTests / numPendingTests / numTodoTests. A file that fails
 * before any test runs (import error, no tests in it) is a failed entry in testResults with no assertions and
 * is not in numFailedTests, so it counts as one failure here.
 */
function countVitest(report, exit) {
  if (!report) return missingReport("Vitest", exit);
  const brokenFiles = (report.testResults ?? []).filter(
    (file) => file.status === "failed" && !(file.assertionResults ?? []).some((a) => a.status === "failed"),
  );
  for (const file of brokenFiles) failures.push(`${path.relative(root, file.name)}: ${firstLine(file.message)}`);
  for (const file of report.testResults ?? []) {
    for (const test of file.assertionResults ?? []) {
      if (test.status === "failed")
        failures.push(`${path.relative(root, file.name)} › ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
    }
  }
  const counts = {
    passed: report.numPassedTests ?? 0,
    failed: (report.numFailedTests ?? 0) + brokenFiles.length,
    skipped: (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0),
  };
  return failedRunFloor(counts, exit, "Vitest");
}

/**
 * Playwright's JSON report: stats.expected (passed), unexpected (failed), flaky (passed on a retry), skipped,
 * and errors[] for failures outside any test (a spec that does not load, the web server not starting).
 */
function countPlaywright(report, exit) {
  if (!report) return missingReport("Playwright", exit);
  const stats = report.stats ?? {};
  const errors = report.errors ?? [];
  for (const error of errors) failures.push(`Playwright: ${firstLine(error.message)}`);
  for (const spec of playwrightSpecs(report.suites ?? [])) {
    for (const test of spec.tests ?? []) {
      if (test.status === "unexpected") {
        const error = test.results?.at(-1)?.error?.message;
        failures.push(`[${test.projectName}] ${spec.file}:${spec.line} › ${spec.title}: ${firstLine(error)}`);
      }
    }
  }
  const counts = {
    passed: (stats.expected ?? 0) + (stats.flaky ?? 0),
    failed: (stats.unexpected ?? 0) + errors.length,
    skipped: stats.skipped ?? 0,
  };
  return failedRunFloor(counts, exit, "Playwright");
}

/** Every spec of Playwright's report, its suites nested to any depth. */
function* playwrightSpecs(suites) {
  for (const suite of suites) {
    yield* suite.specs ?? [];
    yield* playwrightSpecs(suite.suites ?? []);
  }
}

/** A runner that exited non-zero has failed even when its report shows no failed test. */
function failedRunFloor(counts, exit, name) {
  if (exit.code !== 0 && counts.failed === 0) {
    note(`${name} exited with ${describe(exit)} but reported no failed test; counted as 1 failed.`);
    return { ...counts, failed: 1 };
  }
  return counts;
}

function missingReport(name, exit) {
  note(`${name} wrote no JSON report (${describe(exit)}); counted as 1 failed.`);
  return { passed: 0, failed: 1, skipped: 0 };
}

function add(step, counts) {
  totals.passed += counts.passed;
  totals.failed += counts.failed;
  totals.skipped += counts.skipped;
  note(`${step}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return undefined;
  }
}

function describe({ code, signal }) {
  return signal ? `signal ${signal}` : `exit code ${code}`;
}

function firstLine(text) {
  return stripVTControlCharacters(String(text ?? "")).split("\n")[0];
}

function note(message) {
  console.log(`[test] ${message}`);
}

function fail(message) {
  console.error(`[test] ${message}`);
  process.exit(2);
}
