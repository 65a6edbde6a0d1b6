// `npm run bench:views`: the console's own views — several statuses, with a currency, with a created range, and
// text (a word of the order name, an order-id prefix, an order id, an invoice id's tail) — at size, beside the
// provider's one-status list measured in the same run, and the mirror's first fill at the default settings.
//
// Seeds the sandbox's demo merchant (a fresh temporary PGlite folder, or DATABASE_URL: seeded once, then reused),
// empties the console's mirror, serves the built console with its default settings and times the first fill;
// then, through GET /api/invoices and /api/invoices/summary as a signed-in finance person, prints p50/p95 of
// page 1, 50, the middle and the last page of each view in every sort, and of its totals, with the ratio of
// each page's p95 to the provider's one-status page's. Goals: pages p95 ≤ 30 ms (the middle ≤ 60 ms) and at most
// 1.5× the provider's, totals p95 ≤ 20 ms, the fill of 1,000,000 ≤ 5 minutes. Figures are printed, never asserted
// (ARCHITECTURE.md §6).
//
//   npm run bench:views                                 100,000 invoices, PGlite
//   DATABASE_URL=postgres://… npm run bench:views       1,000,000 on that server
//   npm run bench:views -- --invoices 20000 --requests 5 --sorts created_at:desc,fiat_amount:asc
//
// Options: --invoices N (default 100000 on PGlite, 1000000 on PostgreSQL), --requests K timed requests per
// figure (default 15, after one warm-up), --sorts LIST of sort_by:sort_order (default all eight), --views LIST
// (a subset of the view names below), --mirror-ready (DATABASE_URL only: the mirror there is filled and its sync
// marked done; it is kept, the fill not timed). The app must be built (`npx next build`).
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { signedInCookie } from "@/lib/console/auth/signed-in-cookie";
import { closeDatabase, getDatabase } from "@/lib/platform/db";
import { DEMO_MERCHANT_ID } from "@/lib/sandbox/keys";
import { ensureSeeded } from "@/lib/sandbox/seed";
import { type ConsoleServer, cpuSeconds, ms, percentile, root, seconds, sleep, startBuiltConsole } from "./kit";

process.chdir(root);

const SORTS = ["created_at", "updated_at", "fiat_amount", "crypto_amount"].flatMap((by) => [`${by}:desc`, `${by}:asc`]);
const usePg = Boolean(process.env.DATABASE_URL);
const args = process.argv.slice(2);
const option = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? String(args[i + 1]) : undefined;
};
const wholeNumber = (name: string, fallback: number) => {
  const value = Number((option(name) ?? String(fallback)).replace(/_/g, ""));
  if (!Number.isSafeInteger(value) || value <= 0) throw new Error(`--${name} must be a positive whole number`);
  return value;
};
const o = {
  invoices: wholeNumber("invoices", usePg ? 1_000_000 : 100_000),
  requests: wholeNumber("requests", 15),
  sorts: option("sorts")?.split(",") ?? SORTS,
  views: option("views")?.split(","),
  mirrorReady: args.includes("--mirror-ready"),
};
if (o.mirrorReady && !usePg) throw new Error("--mirror-ready needs DATABASE_URL: a PGlite folder here is always new");
for (const sort of o.sorts) if (!SORTS.includes(sort)) throw new Error(`--sorts: ${sort} is not one of ${SORTS.join(", ")}`);

const tempDir = usePg ? undefined : mkdtempSync(path.join(os.tmpdir(), "invoice-bench-views-"));
let server: ConsoleServer | undefined;
async function cleanup() {
  await server?.stop();
  await closeDatabase().catch(() => {});
  if (tempDir) rmSync(tempDir, { recursive: true, force: true });
}
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => void cleanup().finally(() => process.exit(130)));

type Sample = { orderId: string; orderName: string; invoiceId: string };

/** Seeds the provider, empties the mirror (its sync starts over), and picks what the text views look for. */
async function prepare(): Promise<{ cookie: string; sample: Sample }> {
  if (tempDir) process.env.DATA_DIR = tempDir;
  const db = await getDatabase();
  const started = performance.now();
  const seeded = await ensureSeeded(db, o.invoices);
  console.log(`${seeded ? "Seeded" : "Reused"} ${o.invoices.toLocaleString("en")} invoices (${seconds(performance.now() - started)})`);
  if (!o.mirrorReady) {
    await db.execute(sql`truncate console.search_invoices, console.mirror_documents, console.mirror_totals`);
    await db.execute(sql`delete from console.search_sync`);
  }
  const [sample] = (
    (await db.execute(sql`
      select order_id as "orderId", order_name as "orderName", 'invoice_' || id::text as "invoiceId" from sandbox.invoices
      where merchant_id = ${DEMO_MERCHANT_ID}::uuid and order_name is not null order by created_at desc limit 1 offset ${Math.floor(o.invoices / 2)}`)) as unknown as {
      rows: Sample[];
    }
  ).rows;
  const cookie = await signedInCookie("finance");
  await closeDatabase();
  return { cookie, sample };
}

type IndexState = {
  state: string;
  fill_total: number | null;
  fill_read: number;
  fill_started_at: string | null;
  fill_completed_at: string | null;
  upstream_calls: number;
};

async function timeFill(get: (path: string) => Promise<Response>, console_: ConsoleServer) {
  // The search answers the index's state beside its results: asked for what matches nothing, it costs the fill
  // nothing it measures (a search for "ORD", which every order id starts with, took ~0.1 s of the database a poll).
  const index = async () => ((await (await get("/api/search?q=fill-progress-probe")).json()) as { index: IndexState }).index;
  const postgres = () => cpuSeconds((command) => command === "postgres");
  const cpuBefore = { console: console_.cpuSeconds(), postgres: postgres() };
  let state = await index();
  let lastReport = Date.now();
  while (state.state !== "ready" || !state.fill_completed_at) {
    await sleep(500);
    state = await index();
    if (Date.now() - lastReport > 30_000) {
      lastReport = Date.now();
      console.log(`  filling: ${state.fill_read.toLocaleString("en")} of ${(state.fill_total ?? 0).toLocaleString("en")}`);
    }
  }
  const took = Date.parse(state.fill_completed_at) - Date.parse(state.fill_started_at!);
  console.log(
    `First fill at the default settings: ${state.fill_total?.toLocaleString("en")} invoices in ${seconds(took)} ` +
      `(${state.upstream_calls} provider calls, ${(state.upstream_calls / (took / 1000)).toFixed(1)} a second; goal for 1,000,000: ≤ 300 s)`,
  );
  // What the fill cost in CPU: steadier than its wall time where the hypervisor takes a share of the machine.
  const cpu = { console: console_.cpuSeconds(), postgres: postgres() };
  if (cpu.console !== null && cpuBefore.console !== null) {
    const used = (n: number) => `${n.toFixed(1)} s`;
    const pg = process.env.DATABASE_URL && cpu.postgres !== null && cpuBefore.postgres !== null ? cpu.postgres - cpuBefore.postgres : null;
    console.log(
      `  CPU during it (from the start of this wait): the console's process ${used(cpu.console - cpuBefore.console)}` +
        (pg === null ? "" : `, this machine's PostgreSQL processes ${used(pg)}`),
    );
  }
}

async function main() {
  const { cookie, sample } = await prepare();
  server = await startBuiltConsole({ DATA_DIR: tempDir ?? "", DATABASE_URL: process.env.DATABASE_URL ?? "", INVOICING_API_URL: "" });
  const { base } = server;
  const get = (path: string) => fetch(`${base}${path}`, { headers: { cookie, accept: "application/json" } });
  if (!o.mirrorReady) await timeFill(get, server);

  const now = Date.now();
  const views: Record<string, Record<string, string>> = {
    "provider, one status (baseline)": { status: "completed" },
    "pending + partly paid": { status: "pending,paid_partial" },
    "pending + partly paid + BTC": { status: "pending,paid_partial", currency: "BTC" },
    "completed + cancelled, 90 days": {
      status: "completed,cancelled",
      created_after: new Date(now - 90 * 86_400_000).toISOString(),
      created_before: new Date(now).toISOString(),
    },
    "q: a word of the order name": { q: sample.orderName.split(/\s+/).find((w) => w.length >= 4) ?? sample.orderName },
    "q: an order-id prefix": { q: sample.orderId.slice(0, 8) },
    "q: an order id": { q: sample.orderId },
    "q: an invoice id's tail": { q: sample.invoiceId.slice(-12) },
  };
  const picked = Object.entries(views).filter(([name], i) => i === 0 || !o.views || o.views.some((v) => name.includes(v)));

  const time = async (path: string) => {
    await (await get(path)).arrayBuffer(); // warm-up
    const times: number[] = [];
    for (let i = 0; i < o.requests; i++) {
      const started = performance.now();
      const answer = await get(path);
      await answer.arrayBuffer();
      if (!answer.ok) throw new Error(`${path}: ${answer.status}`);
      times.push(performance.now() - started);
    }
    return { p50: percentile(times, 50), p95: percentile(times, 95) };
  };
  const pad = (text: string, width: number) => text.padStart(width);
  const cell = (t: { p50: number; p95: number } | undefined, base?: { p95: number }) =>
    pad(t ? `${t.p50.toFixed(0)}/${t.p95.toFixed(0)}${base ? ` ${(t.p95 / base.p95).toFixed(1)}×` : ""}` : "—", 15);

  console.log(`\np50/p95 in ms through the console, ${o.requests} requests each; a page's p95 ÷ the provider's same page`);
  console.log(
    `${"view".padEnd(32)} ${"sort".padEnd(19)} ${pad("rows", 9)} ${pad("page 1", 15)} ${pad("page 50", 15)} ${pad("middle", 15)} ${pad("last", 15)} ${pad("totals", 10)}`,
  );
  type Figure = { p50: number; p95: number };
  const PAGES = ["1", "50", "middle", "last"] as const;
  const baselines = new Map<string, Partial<Record<(typeof PAGES)[number], Figure>>>();
  const worst: Record<string, number[]> = {};
  for (const [name, params] of picked) {
    const isBaseline = name.startsWith("provider");
    const summary = isBaseline ? undefined : await time(`/api/invoices/summary?${new URLSearchParams(params)}`);
    if (summary) (worst.totals ??= []).push(summary.p95);
    for (const sort of o.sorts) {
      const [sort_by, sort_order] = sort.split(":");
      const query = (page: number) => `/api/invoices?${new URLSearchParams({ ...params, sort_by, sort_order, page: String(page) })}`;
      const first = (await (await get(query(1))).json()) as { pagination: { total_pages: number; total_records: number } };
      const pages = first.pagination.total_pages;
      const at = { 1: 1, 50: 50, middle: Math.ceil(pages / 2), last: pages };
      const figures: Partial<Record<(typeof PAGES)[number], Figure>> = {};
      // One after the other: a figure is never taken while another request runs.
      for (const label of PAGES) if (at[label] <= pages) figures[label] = await time(query(at[label]));
      if (isBaseline) baselines.set(sort, figures);
      else for (const label of PAGES) if (figures[label]) (worst[label] ??= []).push(figures[label].p95);
      const baseline = isBaseline ? undefined : baselines.get(sort);
      console.log(
        `${name.padEnd(32)} ${sort.padEnd(19)} ${pad(first.pagination.total_records.toLocaleString("en"), 9)} ` +
          `${PAGES.map((label) => cell(figures[label], baseline?.[label])).join(" ")} ` +
          `${pad(summary ? `${summary.p50.toFixed(0)}/${summary.p95.toFixed(0)}` : "—", 10)}`,
      );
    }
  }
  console.log(
    `\nWorst p95 over the console's views: ${[...PAGES, "totals"].map((label) => `${label} ${ms(Math.max(...(worst[label] ?? [Number.NaN])))}`).join(", ")}`,
  );
}

main()
  .catch((error) => {
    console.error(`bench:views: ${error instanceof Error ? error.message : error}`);
    process.exitCode = 1;
  })
  .finally(cleanup);
