// `npm run bench:list`: how fast is GET /invoices on a big merchant, straight to the sandbox and through the
// console's proxy? Seeds a fresh database (and says how long that took), serves the built app with `next start`,
// and prints p50/p95 straight and through the console, with their ratio, for every sort_by × sort_order × filter
// (none, a status, a currency, a 30-day created range, all three) on page 1, page 50, the middle page and the
// last page. Figures are printed, never asserted (ARCHITECTURE.md §6).
//
//   npm run bench:list                                   100,000 invoices in a fresh temporary PGlite folder
//   DATABASE_URL=postgres://… npm run bench:list         1,000,000 invoices on PostgreSQL (seeded once, then reused)
//   npm run bench:list -- --invoices 20000 --requests 10
//
// Options (also BENCH_INVOICES / BENCH_REQUESTS in the environment):
//   --invoices N      invoices to seed for the demo merchant (default 100000 on PGlite, 1000000 on PostgreSQL)
//   --requests K      timed requests per combination and path (default 20), after one warm-up pass over all
//                     combinations and 2 warm-up requests for the combination itself
//   --status S        the status used for the filtered combinations (default completed)
//   --currency C      the currency used for the filtered combinations (default BTC)
//   --filters LIST    comma-separated subset of none,status,currency,created,all (default all five)
//   --pages LIST      comma-separated subset of 1,50,middle,last (default all four)
//   --sorts LIST      comma-separated subset of sort_by:sort_order, e.g. created_at:desc (default all eight)
//   --timeout-ms T    limit for one request (default 30000)
//   --max-requests M  refuse to start a run that would send more than M requests (default 5000)
//   --reset           PostgreSQL only: empty the sandbox schema (TRUNCATE sandbox.merchants CASCADE) and seed
//                     again. Destroys every sandbox merchant, key, invoice and webhook record in that database.
//   --cookie C        the Cookie header for the console's /api/invoices (default: a viewer made and signed in
//                     for this run)
//
// The app must be built; when .next/BUILD_ID is missing this runs `next build` first. An existing build is
// used as it is, so rebuild after changing the code.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { signedInCookie } from "@/lib/console/auth/signed-in-cookie";
import { closeDatabase, type Db, getDatabase } from "@/lib/platform/db";
import { DEMO_MERCHANT_ID } from "@/lib/sandbox/keys";
import { ensureSeeded } from "@/lib/sandbox/seed";
import { DAY, DIRECT_KEY, FILTERS, type FilterName, fail, type Options, parseOptions, WARM_UP } from "./bench-list-options";
import { type Combination, label, printGoals, printSummary, printTable, type Row } from "./bench-list-report";
import { formatFirstLoadTable, measureFirstLoadJs } from "./first-load-js";
import { freePort, seconds, sleep } from "./kit";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
// The database finds its migrations relative to the working directory.
process.chdir(root);

// ---------------------------------------------------------------------------------------------------------
// Cleanup: the server and the temporary folder go away on success, failure and Ctrl-C alike.

let server: ChildProcess | undefined;
let tempDir: string | undefined;
let cleaning: Promise<void> | undefined;
let interrupted = false;

function cleanup(): Promise<void> {
  return (cleaning ??= (async () => {
    await stopServer();
    if (tempDir) {
      rmSync(tempDir, { recursive: true, force: true });
      tempDir = undefined;
    }
  })());
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    interrupted = true;
    console.error(`\nbench:list: ${signal}, stopping the server and removing the temporary folder.`);
    void cleanup().finally(() => process.exit(128 + os.constants.signals[signal]));
  });
}

async function stopServer(): Promise<void> {
  const child = server;
  server = undefined;
  if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  // The server runs in its own process group (detached), so this reaches next and anything it forked.
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // already gone
    }
  };
  signalGroup("SIGTERM");
  const timer = setTimeout(() => signalGroup("SIGKILL"), 5_000);
  await Promise.race([exited, sleep(8_000)]);
  clearTimeout(timer);
}

// ---------------------------------------------------------------------------------------------------------
// Database

async function prepareDatabase(
  o: Options,
): Promise<{ target: string; driver: string; count: number; filtered: number; analyzed: boolean; seedMs: number | undefined }> {
  let target: string;
  let driver: string;
  if (o.databaseUrl) {
    target = o.databaseUrl;
    driver = `PostgreSQL (node-postgres) at ${redact(o.databaseUrl)}`;
  } else {
    tempDir = mkdtempSync(path.join(os.tmpdir(), "invoice-bench-"));
    target = path.join(tempDir, "data");
    driver = `PGlite (WASM) in ${target}`;
  }
  console.log(`Database: ${driver}`);

  const started = performance.now();
  // The app's own connection (read from the environment), so that signing in below uses it too.
  process.env[o.databaseUrl ? "DATABASE_URL" : "DATA_DIR"] = target;
  const db = await getDatabase();
  try {
    console.log(`  opened and migrated in ${seconds(performance.now() - started)}`);
    if (o.reset) {
      await db.execute(sql`truncate table sandbox.merchants cascade`);
      console.log("  --reset: emptied the sandbox schema");
    }
    console.log(`  seeding ${o.invoices.toLocaleString("en")} invoices for the demo merchant, unless it exists already…`);
    const seedStart = performance.now();
    const seeded = await ensureSeeded(db, o.invoices);
    const seedMs = performance.now() - seedStart;
    const count = await countInvoices(db);
    if (seeded) {
      console.log(`  seeded in ${seconds(seedMs)} (${Math.round((o.invoices / seedMs) * 1000).toLocaleString("en")} invoices/s)`);
    } else {
      console.log("  the demo merchant already exists: nothing seeded, measuring the invoices that are there.");
      if (count !== o.invoices) {
        console.log(
          `  NOTE: it has ${count.toLocaleString("en")} invoices, not the ${o.invoices.toLocaleString("en")} asked for. ` +
            "Rerun with --reset to empty the sandbox schema and seed the asked-for number.",
        );
      }
    }
    const stats = await db.execute<{ analyzed: boolean }>(
      sql`select exists (select 1 from pg_stats where schemaname = 'sandbox' and tablename = 'invoices') as analyzed`,
    );
    const analyzed = !!(stats as unknown as { rows: { analyzed: boolean }[] }).rows[0]?.analyzed;
    console.log(`  planner statistics on sandbox.invoices: ${analyzed ? "yes (analyzed)" : "none (never analyzed)"}`);
    const filtered = await countInvoices(db, o.status);
    // The console's API needs a session: a viewer of its own for this run.
    o.cookie ??= await signedInCookie("viewer");
    return { target, driver, count, filtered, analyzed, seedMs: seeded ? seedMs : undefined };
  } finally {
    // PGlite allows one process per data folder: the server opens it next.
    await closeDatabase();
  }
}

async function countInvoices(db: Db, status?: string): Promise<number> {
  const result = await db.execute<{ n: number }>(
    status
      ? sql`select count(*)::int as n from sandbox.invoices where merchant_id = ${DEMO_MERCHANT_ID}::uuid and status = ${status}`
      : sql`select count(*)::int as n from sandbox.invoices where merchant_id = ${DEMO_MERCHANT_ID}::uuid`,
  );
  // node-postgres answers a QueryResult, PGlite a Results object: both carry rows.
  return Number((result as unknown as { rows: { n: number }[] }).rows[0].n);
}

function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "(unparseable URL)";
  }
}

// ---------------------------------------------------------------------------------------------------------
// Server

async function ensureBuilt(): Promise<string> {
  const buildId = path.join(root, ".next", "BUILD_ID");
  if (!existsSync(buildId)) {
    console.log("No build (.next/BUILD_ID is missing): running `next build` first.");
    const code = await new Promise<number | null>((resolve, reject) => {
      const child = spawn(path.join(root, "node_modules", ".bin", "next"), ["build"], { cwd: root, stdio: "inherit", detached: true });
      server = child; // so that Ctrl-C during the build stops it too
      child.on("error", reject);
      child.on("exit", (c) => resolve(c));
    });
    server = undefined;
    if (code !== 0) throw new Error(`next build failed (exit ${code}).`);
  }
  const id = readFileSync(buildId, "utf8").trim();
  return `${id} (built ${statSync(buildId).mtime.toISOString()})`;
}

async function startServer(o: Options, target: string): Promise<{ base: string; log: () => string }> {
  const port = await freePort();
  const childEnv: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), NODE_ENV: "production" };
  // The console must proxy to this server's own sandbox, whatever the caller's shell says.
  delete childEnv.INVOICING_API_URL;
  delete childEnv.INVOICING_API_KEY;
  // The search index's first fill walks the whole list in the background (1,000 pages for 100,000 invoices):
  // a load of its own that would land in the middle of these timings. This measures the list alone.
  childEnv.SEARCH_SYNC_SECONDS = "0";
  if (o.databaseUrl) {
    childEnv.DATABASE_URL = o.databaseUrl;
  } else {
    delete childEnv.DATABASE_URL;
    childEnv.DATA_DIR = target;
  }
  let output = "";
  const child = spawn(path.join(root, "node_modules", ".bin", "next"), ["start", "-p", String(port), "-H", "127.0.0.1"], {
    cwd: root,
    env: childEnv,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  server = child;
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000));
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);

  const base = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const deadline = started + 180_000;
  while (true) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`next start exited (${child.exitCode ?? child.signalCode}) before answering. Its output:\n${output}`);
    }
    if (performance.now() > deadline) throw new Error(`next start did not answer within 180 s. Its output:\n${output}`);
    try {
      const res = await fetch(`${base}/sandbox/api/v1/invoices?page_size=1`, {
        headers: { "api-key": DIRECT_KEY },
        signal: AbortSignal.timeout(5_000),
      });
      await res.arrayBuffer();
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
  console.log(
    `Server: next start on ${base}, answering after ${seconds(performance.now() - started)} (pid ${child.pid}); search index sync off (SEARCH_SYNC_SECONDS=0)`,
  );
  return { base, log: () => output };
}

// ---------------------------------------------------------------------------------------------------------
// Measuring

/** What each filter sends: the status and currency of the options, the 30 days before the run started. */
type FilterValues = Record<FilterName, Record<string, string>>;

function filterValues(o: Options, now = Date.now()): FilterValues {
  const created = { created_after: new Date(now - 30 * DAY).toISOString(), created_before: new Date(now).toISOString() };
  return {
    none: {},
    status: { status: o.status },
    currency: { currency: o.currency },
    created,
    all: { status: o.status, currency: o.currency, ...created },
  };
}

function combinations(o: Options): Combination[] {
  const list: Combination[] = [];
  for (const filter of o.filters)
    for (const { sortBy, sortOrder } of o.sorts) for (const page of o.pages) list.push({ sortBy, sortOrder, filter, page });
  return list;
}

function queryOf(c: Combination, values: FilterValues, page: number): string {
  return new URLSearchParams({ sort_by: c.sortBy, sort_order: c.sortOrder, ...values[c.filter], page: String(page) }).toString();
}

/** The page number a combination asks for: the middle and last pages follow from the filter's total. */
async function pageNumber(base: string, c: Combination, values: FilterValues, o: Options): Promise<number> {
  if (c.page !== "middle" && c.page !== "last") return Number(c.page);
  const r = await timed(`${base}/sandbox/api/v1/invoices?${queryOf(c, values, 1)}&page_size=1`, { "api-key": DIRECT_KEY }, o.timeoutMs);
  const pages = Math.max(1, Math.ceil((JSON.parse(r.body) as { pagination: { total_records: number } }).pagination.total_records / 20));
  return c.page === "last" ? pages : Math.ceil(pages / 2);
}

/** One request, timed from sending to the last byte of the body. */
async function timed(
  url: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<{ ms: number; status: number; body: string }> {
  const start = performance.now();
  const res = await fetch(url, { headers, signal: AbortSignal.timeout(timeoutMs) });
  const body = await res.text();
  return { ms: performance.now() - start, status: res.status, body };
}

async function measure(base: string, c: Combination, values: FilterValues, o: Options, warmUp = WARM_UP): Promise<Row> {
  const number = await pageNumber(base, c, values, o);
  const query = queryOf(c, values, number);
  const direct = { url: `${base}/sandbox/api/v1/invoices?${query}`, headers: { "api-key": DIRECT_KEY, accept: "application/json" } };
  const consoleHeaders: Record<string, string> = { accept: "application/json" };
  if (o.cookie) consoleHeaders.cookie = o.cookie;
  const viaConsole = { url: `${base}/api/invoices?${query}`, headers: consoleHeaders };

  const row: Row = { ...c, number, total: -1, direct: [], console: [] };
  // Direct and console alternate, so that drift (GC, other load on the machine, caches) hits both alike.
  for (let i = 0; i < warmUp + o.requests; i++) {
    for (const [name, target] of [
      ["direct", direct],
      ["console", viaConsole],
    ] as const) {
      const r = await timed(target.url, target.headers, o.timeoutMs);
      if (r.status !== 200) {
        const hint =
          name === "console" && (r.status === 401 || r.status === 403) ? " (does /api/invoices need a session now? pass --cookie)" : "";
        throw new Error(`${name} GET ${target.url} answered ${r.status}${hint}: ${r.body.slice(0, 300)}`);
      }
      if (i === 0) {
        const body = JSON.parse(r.body) as { items: unknown[]; pagination: { total_records: number } };
        if (body.items.length === 0 && c.filter === "none")
          throw new Error(`${name} GET ${target.url} answered no items: is the database seeded?`);
        if (name === "direct") row.total = body.pagination.total_records;
        else if (body.pagination.total_records !== row.total) {
          throw new Error(`console and direct disagree on total_records for ${label(c)}: ${body.pagination.total_records} vs ${row.total}`);
        }
      }
      if (i >= warmUp) row[name].push(r.ms);
    }
  }
  return row;
}

// ---------------------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const o = parseOptions(process.argv.slice(2));
  const combos = combinations(o);
  const planned = combos.length * 2 * (1 + WARM_UP + o.requests);
  if (planned > o.maxRequests) {
    fail(
      `${combos.length} combinations × 2 paths × ${1 + WARM_UP + o.requests} requests = ${planned}, over --max-requests ${o.maxRequests}.`,
    );
  }

  const cpus = os.cpus();
  console.log(
    `Machine: ${cpus.length} × ${cpus[0]?.model.trim() ?? "unknown CPU"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.platform()} ${os.release()}; Node ${process.version}`,
  );
  console.log(
    `Plan: ${combos.length} combinations × (1 + ${WARM_UP} warm-up + ${o.requests} timed) × direct and console = ${planned} requests, ${o.timeoutMs / 1000} s limit each`,
  );

  const build = await ensureBuilt();
  console.log(`Build: ${build}`);
  const { target, driver, count, filtered, analyzed, seedMs } = await prepareDatabase(o);
  const { base } = await startServer(o, target);

  const values = filterValues(o);
  console.log(
    `Rows: ${count.toLocaleString("en")} invoices for the demo merchant, ${filtered.toLocaleString("en")} with status=${o.status}; page size 20 (default)`,
  );
  console.log(`Filters: ${FILTERS.map((f) => `${f} = ${new URLSearchParams(values[f]).toString() || "(none)"}`).join("; ")}`);
  console.log("");
  // One request per combination and path first, so that the first combinations do not pay for a cold server
  // (JIT, route compilation caches, the database's buffer cache) that the later ones do not.
  const warmStart = performance.now();
  for (const c of combos) await measure(base, c, values, { ...o, requests: 0 }, 1);
  console.log(`Warm-up: ${combos.length * 2} requests in ${seconds(performance.now() - warmStart)}`);
  const rows: Row[] = [];
  const started = performance.now();
  for (const [i, c] of combos.entries()) {
    if (process.stderr.isTTY) process.stderr.write(`\r  measuring ${i + 1}/${combos.length}: ${label(c)}`.padEnd(72));
    rows.push(await measure(base, c, values, o));
  }
  if (process.stderr.isTTY) process.stderr.write(`${"\r".padEnd(73)}\r`);
  console.log(
    `GET /sandbox/api/v1/invoices (direct, Api-key) vs GET /api/invoices (console proxy): ${driver}, ${count.toLocaleString("en")} invoices, ${analyzed ? "analyzed" : "no planner statistics"}, ${o.requests} timed requests each`,
  );
  console.log("");
  printTable(rows);
  printSummary(rows);
  printGoals(rows);
  console.log(
    `Seed: ${seedMs === undefined ? "not seeded in this run (the database had the demo merchant)" : `${count.toLocaleString("en")} invoices in ${seconds(seedMs)}`}`,
  );
  // The page's JavaScript as a browser downloads it, on a console of its own (scripts/bench/first-load-js.ts).
  const [invoicesPage] = await measureFirstLoadJs({ routes: ["/invoices"] });
  console.log("");
  console.log(`First-load JS of /invoices (goal ≤ 170 KB gzip), beside main's at commit 191b965:`);
  console.log(formatFirstLoadTable([invoicesPage]));
  console.log(`Measured in ${seconds(performance.now() - started)}.`);
}

main()
  .then(async () => {
    await cleanup();
    process.exit(0);
  })
  .catch(async (error) => {
    if (interrupted) return; // the signal handler cleans up and exits
    console.error(`bench:list: ${error instanceof Error ? error.message : String(error)}`);
    await cleanup();
    process.exit(1);
  });
