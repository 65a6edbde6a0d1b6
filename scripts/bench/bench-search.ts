// `npm run bench:search`: the console's search index on a big merchant. Seeds a fresh PGlite folder,
// serves the built console (`scripts/server/server.mjs`) with its sync at full pace, and prints: the first fill's time
// and provider calls; one incremental sync after N changes (time and calls); and search p50/p95 through the
// console (GET /api/search) for each kind of query — beside a baseline measured in the same run: finding an
// order id the way the provider's list allows, paging GET /api/invoices (100 a page) until it shows up.
// Figures are printed, never asserted (ARCHITECTURE.md §6).
//
//   npm run bench:search
//   npm run bench:search -- --invoices 20000 --changes 100 --queries 200 --pace 100 --baseline 3
//
// Options: --invoices N (default 100000), --changes C (100), --queries Q per kind (100), --pace P pages a
// second for the walks (100, the maximum), --baseline B order ids found by paging (3).
// The app must be built (`npx next build`); an existing build is used as it is.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { signedInCookie } from "@/lib/console/auth/signed-in-cookie";
import type { SearchAnswer } from "@/lib/contract";
import { closeDatabase, getDatabase } from "@/lib/platform/db";
import { DEMO_MERCHANT_ID } from "@/lib/sandbox/keys";
import { ensureSeeded } from "@/lib/sandbox/seed";
import { freePort, percentile, sleep } from "./kit";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
process.chdir(root);

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  const value = i >= 0 ? Number(String(args[i + 1]).replace(/_/g, "")) : fallback;
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
  return value;
};
const o = {
  invoices: option("invoices", 100_000),
  changes: option("changes", 100),
  queries: option("queries", 100),
  pace: option("pace", 100),
  baseline: option("baseline", 3),
};

let server: ChildProcess | undefined;
const tempDir = mkdtempSync(path.join(os.tmpdir(), "invoice-bench-search-"));
const dataDir = path.join(tempDir, "data");

async function cleanup() {
  const child = server;
  server = undefined;
  if (child?.pid && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {}
    await Promise.race([exited, sleep(8_000)]);
  }
  rmSync(tempDir, { recursive: true, force: true });
}
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => void cleanup().finally(() => process.exit(130)));

const ms = (n: number) => `${n.toFixed(1)} ms`;
const s = (n: number) => `${(n / 1000).toFixed(1)} s`;

type Sample = { orderId: string; orderName: string; id: string; status: string };

async function prepare(): Promise<{ cookie: string; samples: Sample[] }> {
  if (!existsSync(path.join(root, ".next", "BUILD_ID"))) throw new Error("No build: run `npx next build` first.");
  process.env.DATA_DIR = dataDir;
  const db = await getDatabase();
  try {
    const started = performance.now();
    await ensureSeeded(db, o.invoices);
    console.log(`Seeded ${o.invoices.toLocaleString("en")} invoices in ${s(performance.now() - started)} (PGlite in ${dataDir})`);
    const result = await db.execute(sql`
      select order_id as "orderId", order_name as "orderName", id::text as id, status from sandbox.invoices
      where merchant_id = ${DEMO_MERCHANT_ID}::uuid and status in ('new', 'pending', 'expired') order by random() limit ${Math.max(o.queries, o.changes)}`);
    return { cookie: await signedInCookie("admin"), samples: (result as unknown as { rows: Sample[] }).rows };
  } finally {
    await closeDatabase();
  }
}

async function main() {
  const { cookie, samples } = await prepare();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  server = spawn(process.execPath, ["scripts/server/server.mjs", "-H", "127.0.0.1"], {
    cwd: root,
    detached: true,
    stdio: ["ignore", "ignore", "inherit"],
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      INVOICING_API_URL: "",
      NODE_ENV: "production",
      SEARCH_SYNC_SECONDS: "2",
      SEARCH_SYNC_PAGES_PER_SECOND: String(o.pace),
    },
  });
  const headers = { cookie, accept: "application/json" };
  const search = async (q: string) =>
    (await (await fetch(`${base}/api/search?${new URLSearchParams({ q })}`, { headers })).json()) as SearchAnswer;
  for (let i = 0; ; i++) {
    if ((await fetch(`${base}/api/health`).catch(() => null))?.ok) break;
    if (i > 600) throw new Error("the console did not start within 5 minutes");
    await sleep(500);
  }

  // 1. The first fill.
  let index = (await search("ORD")).index;
  while (index.state !== "ready" || !index.fresh_as_of) {
    await sleep(250);
    index = (await search("ORD")).index;
  }
  const fillMs = Date.parse(index.fill_completed_at!) - Date.parse(index.fill_started_at!);
  const fillCalls = index.upstream_calls - (index.last_walk_calls ?? 0);
  console.log(
    `\nFirst fill: ${index.fill_total?.toLocaleString("en")} invoices in ${s(fillMs)}, ${fillCalls} provider calls (${(fillCalls / (fillMs / 1000)).toFixed(1)} pages/s at a pace of at most ${o.pace}; the default pace, 5 pages/s, allows no less than ${s((fillCalls / 5) * 1000)})`,
  );

  // 2. One incremental sync after N changes made at the provider (not through the console).
  const changed = samples.slice(0, o.changes);
  for (const sample of changed) {
    const status = sample.status === "expired" ? "pending" : "expired";
    const answer = await fetch(`${base}/sandbox/api/v1/invoices/invoice_${sample.id}`, {
      method: "PATCH",
      headers: { "api-key": "sk_test_demo_full", "content-type": "application/json" },
      body: JSON.stringify({ status }),
    });
    if (!answer.ok) throw new Error(`PATCH ${sample.id}: ${answer.status}`);
    sample.status = status;
  }
  const changesDone = Date.now();
  do {
    await sleep(100);
    index = (await search("ORD")).index;
  } while (Date.parse(index.fresh_as_of!) <= changesDone);
  let found = 0;
  for (const sample of changed) if ((await search(sample.orderId)).results[0]?.status === sample.status) found++;
  console.log(
    `Incremental sync after ${changed.length} changes: ${ms(index.last_walk_ms ?? NaN)}, ${index.last_walk_calls} provider calls; ${found}/${changed.length} found under their new status`,
  );
  console.log(
    `  vs. re-listing everything: ${fillCalls} calls (${(fillCalls / Math.max(1, index.last_walk_calls ?? 1)).toFixed(0)}× more)`,
  );

  // 3. Search latency through the console, by kind of query.
  const kinds: Record<string, (x: Sample) => string> = {
    "order id, exact": (x) => x.orderId,
    "order id, prefix": (x) => x.orderId.slice(0, 12),
    "order id, part after a dash": (x) => x.orderId.split("-").at(-1)!,
    "order name, words": (x) =>
      x.orderName
        .split(/\s+/)
        .slice(0, 2)
        .map((w, i) => (i ? w.slice(0, 3) : w))
        .join(" "),
    "invoice id, bare UUID": (x) => x.id,
  };
  const pool = samples.slice(0, o.queries);
  for (const q of pool.slice(0, 10)) await search(q.orderId); // warm-up
  console.log(`\nSearch through the console, ${pool.length} queries each (goal: p95 ≤ 50 ms)`);
  console.log(`  ${"kind".padEnd(30)} ${"p50".padStart(10)} ${"p95".padStart(10)}  hits`);
  const all: number[] = [];
  for (const [kind, make] of Object.entries(kinds)) {
    const times: number[] = [];
    let hits = 0;
    for (const sample of pool) {
      const started = performance.now();
      const answer = await search(make(sample));
      times.push(performance.now() - started);
      if (answer.results.some((r) => r.order_id === sample.orderId)) hits++;
    }
    all.push(...times);
    console.log(
      `  ${kind.padEnd(30)} ${ms(percentile(times, 50)).padStart(10)} ${ms(percentile(times, 95)).padStart(10)}  ${hits}/${pool.length}`,
    );
  }
  const p50 = percentile(all, 50);
  console.log(`  ${"all".padEnd(30)} ${ms(p50).padStart(10)} ${ms(percentile(all, 95)).padStart(10)}`);

  // 4. Baseline: without the index, support pages through the list until the order shows up.
  const baseline: number[] = [];
  let pages = 0;
  for (const sample of samples.slice(-o.baseline)) {
    const started = performance.now();
    for (let page = 1; ; page++) {
      pages++;
      const list = (await (await fetch(`${base}/api/invoices?page=${page}&page_size=100`, { headers })).json()) as {
        items: { order_id: string }[];
        pagination: { has_next: boolean };
      };
      if (list.items.some((i) => i.order_id === sample.orderId) || !list.pagination.has_next) break;
    }
    baseline.push(performance.now() - started);
  }
  const mean = baseline.reduce((a, b) => a + b, 0) / baseline.length;
  console.log(
    `\nBaseline, paging GET /api/invoices until the order id shows: ${s(mean)} on average (${(pages / baseline.length).toFixed(0)} pages) — the index's p50 is ${(mean / p50).toFixed(0)}× faster`,
  );
}

main()
  .catch((error) => {
    console.error(`bench:search: ${error instanceof Error ? error.message : error}`);
    process.exitCode = 1;
  })
  .finally(cleanup);
