// `npm run bench:export`: how fast, and with how much server memory, does GET /api/invoices/export stream every
// invoice of a big merchant? Seeds a fresh PGlite folder, serves the built console with scripts/server/server.mjs (what
// `npm start` runs), and times, in the same run:
//   - the baseline: the same walk done with plain fetch from this script, straight to the sandbox's
//     GET /invoices (page_size 100, the same upper bound), bodies read and dropped;
//   - the console's export, CSV and JSON, read to the end as a browser would.
// For each: time to the first byte of the body, total time, rows, and the server process's peak resident memory
// (sampled from /proc every 20 ms) above what it held before. Figures are printed, never asserted (ARCHITECTURE.md §6).
//
//   npm run bench:export                       100,000 invoices
//   npm run bench:export -- --invoices 20000 --runs 2
//
// Options (also BENCH_INVOICES / BENCH_RUNS in the environment):
//   --invoices N   invoices to seed for the demo merchant (default 100000)
//   --runs K       timed runs of each path, alternating, after a short warm-up (default 1)
//   --formats F    the console's formats to time, comma-separated (default csv,json)
//
// The app must be built; when .next/BUILD_ID is missing this runs `next build` first. An existing build is used
// as it is, so rebuild after changing the code. Linux only for the memory figures (/proc); elsewhere they read "n/a".
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { signedInCookie } from "@/lib/console/auth/signed-in-cookie";
import { closeDatabase, getDatabase } from "@/lib/platform/db";
import { DEMO_KEYS } from "@/lib/sandbox/keys";
import { ensureSeeded } from "@/lib/sandbox/seed";
import { freePort, sleep } from "./kit";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
process.chdir(root);
const DIRECT_KEY = DEMO_KEYS.find((k) => k.key === "sk_test_demo_full")!.key;

const args = process.argv.slice(2);
const option = (name: string, env: string, fallback: string) => {
  const at = args.indexOf(name);
  const raw = at >= 0 ? args[at + 1] : (process.env[env] ?? fallback);
  const n = Number(String(raw).replace(/_/g, ""));
  if (!Number.isInteger(n) || n < 1) fail(`${name} must be a whole number of at least 1, not "${raw}".`);
  return n;
};
if (args.includes("--help") || args.includes("-h")) {
  console.log(
    readFileSync(fileURLToPath(import.meta.url), "utf8")
      .split("\nimport ")[0]
      .replace(/^\/\/ ?/gm, ""),
  );
  process.exit(0);
}
const INVOICES = option("--invoices", "BENCH_INVOICES", "100000");
const RUNS = option("--runs", "BENCH_RUNS", "1");
const FORMATS = (args.includes("--formats") ? args[args.indexOf("--formats") + 1] : "csv,json").split(",").map((f) => f.trim());
if (!FORMATS.length || FORMATS.some((f) => f !== "csv" && f !== "json")) fail("--formats must list csv and/or json.");

function fail(message: string): never {
  console.error(`bench:export: ${message}`);
  process.exit(2);
}

let server: ChildProcess | undefined;
let tempDir: string | undefined;

async function cleanup() {
  const child = server;
  server = undefined;
  if (child?.pid && child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      // already gone
    }
    await Promise.race([exited, sleep(8_000)]);
  }
  if (tempDir) rmSync(tempDir, { recursive: true, force: true });
  tempDir = undefined;
}
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => void cleanup().finally(() => process.exit(130)));

const seconds = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`);
const mib = (kib: number | null) => (kib === null ? "n/a" : `${(kib / 1024).toFixed(1)} MiB`);

/** Resident memory of a process in KiB, from /proc (null where there is none). */
function rssKib(pid: number): number | null {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? NaN) || null;
  } catch {
    return null;
  }
}

/** The highest resident memory of `pid` while `work` runs. */
async function withPeakRss<T>(pid: number, work: () => Promise<T>): Promise<{ result: T; before: number | null; peak: number | null }> {
  const before = rssKib(pid);
  let peak = before;
  const timer = setInterval(() => {
    const now = rssKib(pid);
    if (now !== null && (peak === null || now > peak)) peak = now;
  }, 20);
  try {
    return { result: await work(), before, peak };
  } finally {
    clearInterval(timer);
  }
}

type Measured = { path: string; rows: number; ttfbMs: number; totalMs: number; bytes: number; before: number | null; peak: number | null };

/** The baseline: the provider's pages with plain fetch, as a script would walk them. */
async function plainWalk(base: string, bound: string): Promise<Omit<Measured, "path" | "before" | "peak">> {
  const start = performance.now();
  let ttfbMs = 0;
  let rows = 0;
  let bytes = 0;
  for (let page = 1; ; page++) {
    const query = new URLSearchParams({
      page: String(page),
      page_size: "100",
      sort_by: "created_at",
      sort_order: "desc",
      created_before: bound,
    });
    const res = await fetch(`${base}/sandbox/api/v1/invoices?${query}`, { headers: { "api-key": DIRECT_KEY } });
    const text = await res.text();
    if (page === 1) ttfbMs = performance.now() - start;
    if (!res.ok) throw new Error(`sandbox page ${page} answered ${res.status}: ${text.slice(0, 200)}`);
    const body = JSON.parse(text) as { items: unknown[]; pagination: { has_next: boolean } };
    rows += body.items.length;
    bytes += text.length;
    if (!body.pagination.has_next || body.items.length === 0) return { rows, ttfbMs, totalMs: performance.now() - start, bytes };
  }
}

/** The console's export, read to the end; rows are counted from the file itself. */
async function consoleExport(base: string, cookie: string, format: "csv" | "json"): Promise<Omit<Measured, "path" | "before" | "peak">> {
  const start = performance.now();
  const res = await fetch(`${base}/api/invoices/export?format=${format}`, { headers: { cookie } });
  if (!res.ok || !res.body) throw new Error(`export answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
  const reader = res.body.getReader();
  let ttfbMs = 0;
  let bytes = 0;
  let lines = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (bytes === 0) ttfbMs = performance.now() - start;
    bytes += value.length;
    for (const byte of value) if (byte === 0x0a) lines++;
  }
  // CSV: the header line; JSON: the opening and closing lines (the seed's names hold no newlines).
  return { rows: lines - (format === "csv" ? 1 : 2), ttfbMs, totalMs: performance.now() - start, bytes };
}

async function main() {
  console.log(
    `bench:export: ${INVOICES.toLocaleString("en")} invoices, ${RUNS} run(s) a path; ${os.cpus().length} CPUs, Node ${process.version}`,
  );
  tempDir = mkdtempSync(path.join(os.tmpdir(), "invoice-bench-export-"));
  const dataDir = path.join(tempDir, "data");
  process.env.DATA_DIR = dataDir;
  delete process.env.DATABASE_URL;
  let started = performance.now();
  const db = await getDatabase();
  await ensureSeeded(db, INVOICES);
  const cookie = await signedInCookie("viewer");
  await closeDatabase();
  console.log(`Seeded ${INVOICES.toLocaleString("en")} invoices in PGlite (${dataDir}) in ${seconds(performance.now() - started)}`);

  if (!existsSync(path.join(root, ".next", "BUILD_ID"))) {
    console.log("No build: running `next build` first.");
    await new Promise<void>((resolve, reject) =>
      spawn(path.join(root, "node_modules", ".bin", "next"), ["build"], { stdio: "inherit" }).on("exit", (c) =>
        c === 0 ? resolve() : reject(new Error(`next build failed (${c})`)),
      ),
    );
  }

  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), DATA_DIR: dataDir, NODE_ENV: "production" };
  delete env.INVOICING_API_URL;
  delete env.INVOICING_API_KEY;
  let output = "";
  server = spawn(process.execPath, [path.join(root, "scripts", "server", "server.mjs"), "-H", "127.0.0.1"], {
    env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  server.stdout!.on("data", (c: Buffer) => (output = (output + c).slice(-10_000)));
  server.stderr!.on("data", (c: Buffer) => (output = (output + c).slice(-10_000)));
  const base = `http://127.0.0.1:${port}`;
  started = performance.now();
  for (;;) {
    if (server.exitCode !== null) throw new Error(`the server exited before answering:\n${output}`);
    if (performance.now() - started > 180_000) throw new Error(`the server did not answer within 180 s:\n${output}`);
    const ok = await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(5_000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await sleep(250);
  }
  const pid = server.pid!;
  console.log(
    `Server: scripts/server/server.mjs on ${base} (pid ${pid}), answering after ${seconds(performance.now() - started)}, RSS ${mib(rssKib(pid))}`,
  );

  // Warm-up: what the first request of each kind would otherwise pay for (a small filtered export, a short walk).
  await (
    await fetch(
      `${base}/api/invoices/export?format=csv&status=expired&created_after=${new Date(Date.now() - 7 * 86_400_000).toISOString()}`,
      { headers: { cookie } },
    )
  ).text();
  await (await fetch(`${base}/sandbox/api/v1/invoices?page_size=100`, { headers: { "api-key": DIRECT_KEY } })).text();

  const results: Measured[] = [];
  for (let run = 0; run < RUNS; run++) {
    const paths: [string, () => Promise<Omit<Measured, "path" | "before" | "peak">>][] = [
      ["baseline: plain fetch walk", () => plainWalk(base, new Date().toISOString())],
      ...FORMATS.map(
        (f) =>
          [`console export ${f.toUpperCase()}`, () => consoleExport(base, cookie, f as "csv" | "json")] as [
            string,
            () => Promise<Omit<Measured, "path" | "before" | "peak">>,
          ],
      ),
    ];
    for (const [label, work] of paths) {
      const { result, before, peak } = await withPeakRss(pid, work);
      results.push({ path: label, ...result, before, peak });
      console.log(
        `  ${label}: ${result.rows.toLocaleString("en")} rows, first byte ${seconds(result.ttfbMs)}, total ${seconds(result.totalMs)}, server RSS ${mib(before)} → peak ${mib(peak)}`,
      );
    }
  }

  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
  const by = (label: string) => results.filter((r) => r.path === label);
  const baseline = by("baseline: plain fetch walk");
  const baseTotal = median(baseline.map((r) => r.totalMs));
  const header = ["path", "rows", "first byte", "total", "rows/s", "MB sent", "server RSS before", "server RSS peak", "total vs baseline"];
  const lines = [...new Set(results.map((r) => r.path))].map((label) => {
    const rs = by(label);
    const total = median(rs.map((r) => r.totalMs));
    const peakDelta = rs.map((r) => (r.peak ?? 0) - (r.before ?? 0));
    return [
      label,
      rs[0].rows.toLocaleString("en"),
      seconds(median(rs.map((r) => r.ttfbMs))),
      seconds(total),
      Math.round((rs[0].rows / total) * 1000).toLocaleString("en"),
      (rs[0].bytes / 1e6).toFixed(1),
      mib(rs[0].before),
      `${mib(Math.max(...rs.map((r) => r.peak ?? 0)))} (+${mib(Math.max(...peakDelta))})`,
      `${(total / baseTotal).toFixed(2)}×`,
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const row = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(" | ");
  console.log(`\n${row(header)}\n${widths.map((w) => "-".repeat(w)).join("-|-")}\n${lines.map(row).join("\n")}`);
  console.log("\nFirst byte: the console's export answers after its first provider page; the baseline's is its first whole page.");
}

main()
  .catch((error) => {
    console.error(`bench:export failed: ${error instanceof Error ? error.message : error}`);
    process.exitCode = 1;
  })
  .finally(cleanup);
