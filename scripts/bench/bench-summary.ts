// `npm run bench:summary`: the totals of any view from the console's mirror. Fills the mirror
// (console.search_invoices) of a fresh database with N synthetic invoices in bulk — INSERT ... SELECT
// generate_series, the migration's triggers keeping console.mirror_totals — and prints, for every filter kind
// × page (1, 10, the last), p50/p95 of mirrorSummary (the rollups) and of mirrorList (a page, with its
// summary), beside a baseline measured in the same run: a plain count(*)/sum() over the mirror with the same
// filter (no rollups), and its ratio to the summary. Once per filter kind it checks that the summary equals
// that plain sum and prints "equal" or the difference. Goal: summary p95 ≤ 20 ms at 1,000,000
// invoices on PostgreSQL and at 100,000 on PGlite. Figures are printed, never asserted (ARCHITECTURE.md §6).
//
//   npm run bench:summary                          100,000 invoices in a fresh temporary PGlite folder
//   npm run bench:summary -- --pg                  1,000,000 on a throwaway PostgreSQL server started here
//   DATABASE_URL=postgres://… npm run bench:summary   1,000,000 on that server (its mirror must be empty; emptied after)
//   npm run bench:summary -- --invoices 20000 --repeat 10
//
// Options: --invoices N (default 100000 on PGlite, 1000000 on PostgreSQL), --repeat K timed runs of each
// query per row (default 20, after one warm-up run), --cell-seconds S (default 20: a row whose K runs would
// take longer stops after S seconds, at least 3 runs; the n column says how many ran), --pg.
//
// The summary and the baseline do not depend on the page: the baseline is timed once per filter kind (its
// K runs interleaved with the summary's), the summary and the list on every page. --pg starts a throwaway server
// as the tests do (test/postgres.ts: TEST_POSTGRES_URL, or PostgreSQL's server programs).
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type SQL, sql } from "drizzle-orm";
import { type MirrorTotals, mirrorList, mirrorSummary } from "@/lib/console/mirror/list";
import { wordsQuery } from "@/lib/console/mirror/text-match";
import { type InvoiceListState, loadInvoiceListState, toListQuery } from "@/lib/contract/invoice-list-state";
import type { InvoiceViewQuery } from "@/lib/contract/invoice-view";
import { toDecimal } from "@/lib/contract/money";
import { ALL_INVOICE_STATUSES } from "@/lib/contract/status";
import { closeDatabase, type Db, getDatabase } from "@/lib/platform/db";
import { NO_POSTGRES_HINT, startTestPostgres, type TestPostgres } from "@/test/postgres";
import { ms, percentile, root, seconds } from "./kit";

// The database finds its migrations relative to the working directory.
process.chdir(root);

const args = process.argv.slice(2);
const known = new Set(["--invoices", "--repeat", "--cell-seconds", "--pg"]);
for (let i = 0; i < args.length; i++) {
  if (!known.has(args[i])) throw new Error(`unknown argument ${args[i]} (options: ${[...known].join(", ")})`);
  if (args[i] !== "--pg") i++;
}
const usePg = args.includes("--pg") || Boolean(process.env.DATABASE_URL);
const option = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  const value = i >= 0 ? Number(String(args[i + 1]).replace(/_/g, "")) : fallback;
  if (!Number.isSafeInteger(value) || value <= 0) throw new Error(`--${name} must be a positive whole number`);
  return value;
};
const o = {
  invoices: option("invoices", usePg ? 1_000_000 : 100_000),
  repeat: option("repeat", 20),
  cellSeconds: option("cell-seconds", 20),
};

const TIME_ZONE = "Europe/Berlin";
const PAGE_SIZE = 20;
const DAY = 86_400_000;
const CHUNK = 50_000;
const CRYPTO = ["BTC", "ETH", "USDT", "USDC", "LTC", "TRX", "SOL"] as const;
// Decimals of each crypto currency's amounts (ETH's 18 need numeric: every digit is kept).
const CRYPTO_DECIMALS = [8, 18, 6, 6, 8, 6, 9];
const FIAT = ["EUR", "USD", "GBP"] as const;
// Statuses spread unevenly over all seven (weights out of 20), as a real merchant's are.
const STATUS_WEIGHTS: [string, number][] = [
  ["completed", 6],
  ["expired", 4],
  ["pending", 3],
  ["new", 2],
  ["cancelled", 2],
  ["paid_partial", 2],
  ["archived", 1],
];
const ADJECTIVES = ["premium", "basic", "annual", "monthly", "express", "custom", "bulk", "starter", "pro", "team", "gift", "trial"];
const ITEMS = [
  "hosting",
  "license",
  "support",
  "domain",
  "backup",
  "storage",
  "consulting",
  "seats",
  "bundle",
  "voucher",
  "upgrade",
  "renewal",
];
const CUSTOMERS = ["acme", "globex", "initech", "umbrella", "hooli", "stark", "wayne", "wonka", "tyrell", "cyberdyne"];
const CUSTOMERS_MORE = ["soylent", "oscorp", "aperture", "vandelay", "dunder", "pied", "monarch", "gringotts", "nakatomi", "massive"];

const tempDirs: string[] = [];
let pg: TestPostgres | undefined;
let emptyAfter: Db | undefined;

async function cleanup() {
  if (emptyAfter) {
    const db = emptyAfter;
    emptyAfter = undefined;
    await db.execute(sql`truncate console.search_invoices, console.mirror_documents, console.mirror_totals`).catch(() => {});
  }
  await closeDatabase().catch(() => {});
  const started = pg;
  pg = undefined;
  await started?.stop().catch(() => {});
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => void cleanup().finally(() => process.exit(130)));

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** SQL picking one of `values` from a hash of the row number (deterministic, no random()). */
const pick = (values: readonly string[], seed: number) =>
  sql.raw(`(array[${values.map((v) => `'${v}'`).join(",")}])[1 + abs(hashint4extended(i, ${seed}) % ${values.length})]`);

/** Fills the mirror with invoices start..end (1-based), created over the 2 years before `now`. */
async function fill(db: Db, start: number, end: number, now: Date) {
  const statuses = STATUS_WEIGHTS.flatMap(([status, weight]) => Array<string>(weight).fill(status));
  const decimals = sql.raw(`(array[${CRYPTO_DECIMALS.join(",")}])`);
  await db.execute(sql`
    with inserted as (
    insert into console.search_invoices
      (invoice_id, order_id, order_name, status, fiat_amount, fiat_currency, crypto_amount, currency, created_at, updated_at)
    select invoice_id, order_id, order_name, status, fiat_amount, fiat_currency, crypto_amount, currency, created_at, updated_at
    from (
      select i,
        'invoice_' || md5('bench-summary' || i)::uuid::text as invoice_id,
        'ORD-' || lpad(i::text, 7, '0') as order_id,
        initcap(${pick(ADJECTIVES, 1)}) || ' ' || ${pick(ITEMS, 2)} || ' for ' || initcap(${pick(CUSTOMERS, 3)})
          || ' ' || initcap(${pick(CUSTOMERS_MORE, 4)}) as order_name,
        ${pick(statuses, 5)} as status,
        -- One invoice in 50 has no fiat amount (a provider may leave it out).
        case when abs(hashint4extended(i, 6) % 50) = 0 then null
          else (abs(hashint4extended(i, 7) % 5000000) + 1)::numeric / 100 end as fiat_amount,
        ${pick(FIAT, 8)} as fiat_currency,
        (abs(hashint4extended(i, 10))::numeric % (10::numeric ^ (${decimals}[c] + 2)))
          / (10::numeric ^ ${decimals}[c]) as crypto_amount,
        (array[${sql.raw(CRYPTO.map((c) => `'${c}'`).join(","))}])[c] as currency,
        created_at,
        created_at + make_interval(secs => abs(hashint4extended(i, 11) % 86400)) as updated_at
      from (
        select i, 1 + abs(hashint4extended(i, 9) % ${CRYPTO.length})::int as c,
          ${now.toISOString()}::timestamptz - make_interval(secs => abs(hashint4extended(i, 12) % ${2 * 365 * 86_400_000})::numeric / 1000) as created_at
        from generate_series(${start}::int, ${end}::int) as i
      ) as g
    ) as x
    returning *)
    insert into console.mirror_documents (invoice_id, document)
    select invoice_id,
      json_build_object(
        'invoice_id', invoice_id, 'order_id', order_id, 'order_name', order_name, 'status', status,
        'fiat_amount', fiat_amount::text, 'fiat_currency', fiat_currency, 'crypto_amount', crypto_amount::text,
        'currency', currency, 'allowed_error_percent', null, 'callback_url', null,
        'created_at', to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
        'updated_at', to_char(updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
        'expires_at', null, 'priced_in', null, 'payment', null, 'provider_fields', json_build_array()
      )::text
    from inserted`);
}

/** The baseline's filter: the view's rows, plainly (the same conditions as lib/console/mirror/list.ts, no rollups). */
function plainWhere(view: InvoiceViewQuery): SQL {
  const parts: SQL[] = [sql`true`];
  if (view.status)
    parts.push(
      sql`status in (${sql.join(
        view.status.map((x) => sql`${x}`),
        sql`, `,
      )})`,
    );
  if (view.currency) parts.push(sql`lower(currency) = lower(${view.currency})`);
  if (view.created_after) parts.push(sql`created_at > ${view.created_after}::timestamptz`);
  if (view.created_before) parts.push(sql`created_at < ${view.created_before}::timestamptz`);
  if (view.q) {
    const q = view.q.trim().toLowerCase();
    const like = `${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const words = wordsQuery(q);
    parts.push(
      sql`(lower(order_id) like ${like} or lower(invoice_id) = ${q}${
        q.length >= 8 ? sql` or reverse(lower(invoice_id)) like ${`${[...like.slice(0, -1)].reverse().join("")}%`}` : sql``
      }${words ? sql` or search_vector @@ to_tsquery('simple', ${words})` : sql``})`,
    );
  }
  return sql.join(parts, sql` and `);
}

type Plain = { count: number; fiat: Record<string, string>; crypto: Record<string, string> };

/** The baseline: count(*) and sum() over the mirror's rows, grouped by currency (and by fiat currency, to compare). */
async function plainSum(db: Db, view: InvoiceViewQuery): Promise<Plain> {
  const rows = rowsOf<{
    currency: string | null;
    fiat_currency: string | null;
    g: number;
    n: string;
    fiat: string | null;
    crypto: string | null;
  }>(
    await db.execute(sql`
      select currency, fiat_currency, grouping(currency, fiat_currency) as g, count(*)::text as n,
             trim_scale(sum(fiat_amount))::text as fiat, trim_scale(sum(crypto_amount))::text as crypto
      from console.search_invoices where ${plainWhere(view)}
      group by grouping sets ((currency), (fiat_currency), ())`),
  );
  const plain: Plain = { count: 0, fiat: {}, crypto: {} };
  for (const row of rows) {
    const g = Number(row.g);
    if (g === 0b11) plain.count = Number(row.n);
    else if (g === 0b01 && row.currency) plain.crypto[row.currency] = toDecimal(row.crypto ?? "0") ?? "0";
    else if (g === 0b10 && row.fiat_currency) plain.fiat[row.fiat_currency] = toDecimal(row.fiat ?? "0") ?? "0";
  }
  return plain;
}

/** "equal", or what differs between the summary and the plain sum. */
function compare(summary: MirrorTotals, plain: Plain): string {
  const differences: string[] = [];
  if (summary.count !== plain.count) differences.push(`count ${summary.count} ≠ ${plain.count}`);
  for (const kind of ["fiat", "crypto"] as const) {
    for (const key of new Set([...Object.keys(summary[kind]), ...Object.keys(plain[kind])])) {
      const a = summary[kind][key] ?? "(none)";
      const b = plain[kind][key] ?? "(none)";
      if (a !== b) differences.push(`${kind} ${key} ${a} ≠ ${b}`);
    }
  }
  const statusCount = Object.values(summary.statuses).reduce((a, b) => a + b, 0);
  if (statusCount !== summary.count) differences.push(`statuses add up to ${statusCount}, not ${summary.count}`);
  return differences.length ? `DIFFERENT: ${differences.join("; ")}` : "equal";
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

/** K runs of each of `runs`, interleaved, after one warm-up; stops early (≥ 3 runs) past the cell's time budget. */
async function measure(runs: (() => Promise<unknown>)[]): Promise<number[][]> {
  for (const run of runs) await run();
  const times: number[][] = runs.map(() => []);
  const started = performance.now();
  for (let k = 0; k < o.repeat; k++) {
    for (const [i, run] of runs.entries()) times[i].push(await timed(run));
    if (k >= 2 && performance.now() - started > o.cellSeconds * 1000) break;
  }
  return times;
}

/** The list's own defaults (what an address without a query shows), at the benchmark's page size. */
function listState(state: Partial<InvoiceListState>): InvoiceListState {
  return { ...loadInvoiceListState({}), page_size: PAGE_SIZE, ...state };
}

async function main() {
  if (!ALL_INVOICE_STATUSES.every((x) => STATUS_WEIGHTS.some(([status]) => status === x))) throw new Error("a status is missing");
  let where: string;
  if (usePg) {
    if (!process.env.DATABASE_URL) {
      pg = (await startTestPostgres()) ?? undefined;
      if (!pg) throw new Error(`--pg: ${NO_POSTGRES_HINT}`);
      process.env.DATABASE_URL = pg.url;
    }
    where = pg ? "a throwaway PostgreSQL server" : "PostgreSQL at DATABASE_URL";
  } else {
    const dir = mkdtempSync(path.join(os.tmpdir(), "invoice-bench-summary-"));
    tempDirs.push(dir);
    process.env.DATA_DIR = path.join(dir, "data");
    where = `PGlite in ${process.env.DATA_DIR}`;
  }
  const db = await getDatabase();
  const version = rowsOf<{ v: string }>(await db.execute(sql`select current_setting('server_version') as v`))[0].v;
  const [{ n: existing }] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from console.search_invoices`));
  if (existing) throw new Error(`the mirror of this database already holds ${existing} invoices: give an empty database`);
  // A server given by DATABASE_URL keeps running: its mirror is emptied again at the end (a throwaway one is removed).
  if (usePg && !pg) emptyAfter = db;

  // 1. Fill the mirror, in chunks (each INSERT's statement trigger adds its rows to the rollups).
  const now = new Date();
  const filling = performance.now();
  for (let start = 1; start <= o.invoices; start += CHUNK) {
    await fill(db, start, Math.min(o.invoices, start + CHUNK - 1), now);
    if (process.stdout.isTTY)
      process.stdout.write(`\r\x1b[KFilling the mirror: ${Math.min(o.invoices, start + CHUNK - 1).toLocaleString("en")} invoices`);
  }
  const fillMs = performance.now() - filling;
  await db.execute(sql`vacuum (analyze) console.search_invoices, console.mirror_totals`);
  const [{ rollups }] = rowsOf<{ rollups: number }>(await db.execute(sql`select count(*)::int as rollups from console.mirror_totals`));
  console.log(
    `${process.stdout.isTTY ? "\r\x1b[K" : ""}Filled the mirror with ${o.invoices.toLocaleString("en")} invoices in ${seconds(fillMs)} (then vacuum analyze; ${rollups.toLocaleString("en")} rollup rows) — ${where}, PostgreSQL ${version}`,
  );

  // 2. The views: every filter kind, as the table builds them (dates in a non-UTC zone, as a person counts days).
  const rangeFrom = new Date(now.getTime() - 200 * DAY);
  const range = { from: rangeFrom, to: new Date(rangeFrom.getTime() + 89 * DAY) };
  const filters: [string, InvoiceListState][] = [
    ["none", listState({})],
    ["one status (pending)", listState({ status: ["pending"] })],
    ["two statuses (pending, paid_partial)", listState({ status: ["pending", "paid_partial"] })],
    ["currency (BTC)", listState({ currency: "BTC" })],
    [`last 7 days (${TIME_ZONE})`, listState({ created: "7d" })],
    ["custom 90-day range", listState(range)],
    ["completed + ETH + 90 days", listState({ status: ["completed"], currency: "ETH", ...range })],
    ['q words ("premium acm")', listState({ q: "premium acm" })],
    ['q order-id prefix ("ORD-0001")', listState({ q: "ORD-0001" })],
  ];

  console.log(
    `\np50 / p95 of ${o.repeat} runs (after one warm-up; fewer, at least 3, when a row passes ${o.cellSeconds} s: n), page size ${PAGE_SIZE}, newest first.`,
  );
  console.log("summary: mirrorSummary (rollups); list: mirrorList (a page and its summary); baseline: plain count/sum() over the mirror.");
  console.log("Goal: summary p95 ≤ 20 ms. ratio: baseline ÷ summary, at p50.\n");
  const header = [
    "filter".padEnd(38),
    "page".padStart(6),
    "rows".padStart(9),
    "n".padStart(3),
    "summary p50".padStart(12),
    "p95".padStart(9),
    "list p50".padStart(10),
    "p95".padStart(9),
    "baseline p50".padStart(13),
    "p95".padStart(9),
    "ratio".padStart(7),
    "  goal",
  ].join(" ");
  console.log(header);
  console.log("-".repeat(header.length));
  const checks: string[] = [];
  const misses: string[] = [];
  for (const [name, state] of filters) {
    const base = toListQuery(state, TIME_ZONE, now);
    const summary = await mirrorSummary(db, base);
    const plain = await plainSum(db, base);
    const list = await mirrorList(db, base);
    const listCheck =
      list.pagination.total_records === summary.count && list.items.length === Math.min(PAGE_SIZE, summary.count)
        ? ""
        : `; list DIFFERENT: ${list.items.length} rows on page 1, total_records ${list.pagination.total_records}`;
    checks.push(`  ${name.padEnd(38)} ${summary.count.toLocaleString("en").padStart(9)} invoices: ${compare(summary, plain)}${listCheck}`);
    const [, baseline] = await measure([() => mirrorSummary(db, base), () => plainSum(db, base)]);
    const lastPage = Math.max(1, Math.ceil(summary.count / PAGE_SIZE));
    const pages = [...new Set([1, Math.min(10, lastPage), lastPage])];
    for (const [i, page] of pages.entries()) {
      const view = { ...base, page };
      const [summaries, lists] = await measure([() => mirrorSummary(db, view), () => mirrorList(db, view)]);
      const p95 = percentile(summaries, 95);
      if (p95 > 20) misses.push(`${name}, page ${page}: summary p95 ${ms(p95)}`);
      console.log(
        [
          (i ? "" : name).padEnd(38),
          String(page).padStart(6),
          (i ? "" : summary.count.toLocaleString("en")).padStart(9),
          String(summaries.length).padStart(3),
          ms(percentile(summaries, 50)).padStart(12),
          ms(p95).padStart(9),
          ms(percentile(lists, 50)).padStart(10),
          ms(percentile(lists, 95)).padStart(9),
          (i ? "" : ms(percentile(baseline, 50))).padStart(13),
          (i ? "" : ms(percentile(baseline, 95))).padStart(9),
          (i ? "" : `${(percentile(baseline, 50) / percentile(summaries, 50)).toFixed(1)}×`).padStart(7),
          p95 <= 20 ? "  met" : "  MISSED",
        ].join(" "),
      );
    }
  }
  console.log("\nThe summary against the plain sum, once per filter kind:");
  for (const line of checks) console.log(line);
  console.log(misses.length ? `\nSummary p95 above 20 ms:\n  ${misses.join("\n  ")}` : "\nEvery summary's p95 is within 20 ms.");
}

main()
  .catch((error) => {
    console.error(`\nbench:summary: ${error instanceof Error ? error.message : error}`);
    process.exitCode = 1;
  })
  .finally(cleanup);
