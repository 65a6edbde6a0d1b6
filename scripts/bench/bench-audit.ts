// `npm run bench:audit`: the activity log at size on PostgreSQL (the goal: at 1,000,000 entries any filtered page
// answers with p95 ≤ 50 ms, and the chain verifies at ≥ 50,000 entries a second). Starts a throwaway PostgreSQL
// cluster (test/postgres.ts; or a fresh database on TEST_POSTGRES_URL's server), migrates it, fills the audit log
// through its chain trigger with a realistic mix (./audit-fill.ts) and prints, in the same run:
//   - the fill's time and rate;
//   - a baseline: a `select 1` round trip, and the newest 50 entries read plainly (order by seq desc limit 50);
//   - p50/p95/max of listActivity (lib/console/activity/query.ts: the page and its exact count, as GET /api/activity
//     answers) for each kind of filter (./audit-cases.ts: the issue's list, then a few heavier ones), every query with
//     other values, beside the baseline;
//   - verifyChain over every entry: time and entries a second, beside one plain read of the same entries.
// Figures are printed, never asserted (ARCHITECTURE.md §6), with the machine's load average beside them: on a shared
// machine other work moves them. The cluster is removed at the end, on error or Ctrl-C.
//
//   npm run bench:audit                                  1,000,000 entries (the fill takes minutes)
//   npm run bench:audit -- --entries 100000 --queries 50
//
// Options (also BENCH_ENTRIES / BENCH_QUERIES / BENCH_CHUNK in the environment):
//   --entries N      audit entries to write (default 1000000)
//   --queries Q      timed queries per case, after 5 untimed ones (default 200); the cases take turns
//   --chunk C        entries per INSERT statement (default 50000)
//   --time-zone TZ   the business time zone days are read in (default Europe/Berlin: days not aligned with UTC's)
//
// PostgreSQL's server programs must be installed (apt-get install postgresql), or TEST_POSTGRES_URL set.
import { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { verifyChain } from "@/lib/console/activity/chain";
import { listActivity } from "@/lib/console/activity/query";
import { type ActivityQuery, activityQuerySchema } from "@/lib/contract/activity";
import { addDays } from "@/lib/contract/time-zone";
import { type Db, openDatabase } from "@/lib/platform/db";
import { startTestPostgres, type TestPostgres } from "@/test/postgres";
import { activityCases } from "./audit-cases";
import { fillAuditLog } from "./audit-fill";
import { option } from "./bench-option";
import { percentile } from "./kit";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
// The database finds its migrations relative to the working directory.
process.chdir(root);

const argv = process.argv.slice(2);
if (argv.includes("--help") || argv.includes("-h")) {
  console.log(
    readFileSync(fileURLToPath(import.meta.url), "utf8")
      .split("\nimport ")[0]
      .replace(/^\/\/ ?/gm, ""),
  );
  process.exit(0);
}
const ENTRIES = option(argv, "entries", "BENCH_ENTRIES", 1_000_000, 50_000_000);
const QUERIES = option(argv, "queries", "BENCH_QUERIES", 200, 100_000);
const CHUNK = option(argv, "chunk", "BENCH_CHUNK", 50_000, 1_000_000);
const TIME_ZONE = argv.includes("--time-zone") ? argv[argv.indexOf("--time-zone") + 1] : "Europe/Berlin";
const WARM_UP = 5;
const GOAL_MS = 50;
const GOAL_RATE = 50_000;

let postgres: TestPostgres | null = null;
let opened: { db: Db; close: () => Promise<void> } | null = null;
async function cleanup() {
  const [o, p] = [opened, postgres];
  opened = postgres = null;
  await o?.close().catch(() => {});
  await p?.stop().catch((error) => console.error(`bench:audit: could not stop PostgreSQL: ${error}`));
}
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => void cleanup().finally(() => process.exit(130)));

const ms = (n: number) => `${n.toFixed(1)} ms`;
const s = (n: number) => `${(n / 1000).toFixed(1)} s`;
const count = (n: number) => Math.round(n).toLocaleString("en");

type Timed = { times: number[]; results: number[] };

/**
 * Runs every `once` WARM_UP times untimed, then QUERIES rounds of each in turn, timed: taken in turns, a burst of
 * other work on the machine lands on every case alike. Answers each one's times and what each call returned.
 */
async function timedInTurns(runners: ((i: number) => Promise<number>)[]): Promise<Timed[]> {
  for (let i = 0; i < WARM_UP; i++) for (const once of runners) await once(-1 - i);
  const out = runners.map((): Timed => ({ times: [], results: [] }));
  for (let i = 0; i < QUERIES; i++) {
    for (const [k, once] of runners.entries()) {
      const started = performance.now();
      out[k].results.push(await once(i));
      out[k].times.push(performance.now() - started);
    }
  }
  return out;
}

const rows = <T>(result: unknown) => (result as { rows: T[] }).rows;
const load = () => `load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`;

async function main() {
  postgres = await startTestPostgres();
  if (!postgres) throw new Error("No PostgreSQL: install its server programs (apt-get install postgresql) or set TEST_POSTGRES_URL.");
  opened = await openDatabase(postgres.url);
  const { db } = opened;
  const [{ version }] = rows<{ version: string }>(await db.execute(sql`select version()`));
  console.log(`${version.split(",")[0]}, ${count(ENTRIES)} entries, business time zone ${TIME_ZONE}; ${load()}`);

  // 1. The fill: two years of entries, ending today.
  const today = new Date().toISOString().slice(0, 10);
  const firstDay = addDays(today, -730);
  const invoices = Math.max(100, Math.round(ENTRIES / 5));
  const fillStarted = performance.now();
  let reported = 0;
  await fillAuditLog(
    db,
    { entries: ENTRIES, chunk: CHUNK, from: Date.parse(`${firstDay}T00:00:00Z`), to: Date.parse(`${today}T00:00:00Z`), invoices },
    (done) => {
      if (done - reported < ENTRIES / 10 && done < ENTRIES) return;
      reported = done;
      const elapsed = performance.now() - fillStarted;
      console.log(`  filled ${count(done)} in ${s(elapsed)} (${count(done / (elapsed / 1000))} a second)`);
    },
  );
  const fillMs = performance.now() - fillStarted;
  console.log(
    `Fill: ${count(ENTRIES)} entries in ${s(fillMs)}, ${count(ENTRIES / (fillMs / 1000))} a second, each numbered and hashed by the trigger`,
  );
  // Insert-only tables are vacuumed by autovacuum (PostgreSQL 13+): the steady state, visibility map included.
  const vacuumStarted = performance.now();
  await db.execute(sql`vacuum (analyze) console.audit_log, console.audit_counts, console.audit_texts`);
  const [size] = rows<{ table: string; indexes: string }>(
    await db.execute(sql`select pg_size_pretty(pg_table_size('console.audit_log')) as table,
      pg_size_pretty(pg_indexes_size('console.audit_log')) as indexes`),
  );
  console.log(`VACUUM ANALYZE: ${s(performance.now() - vacuumStarted)}; table ${size.table}, its indexes ${size.indexes}`);

  // 2. The baseline, then every case.
  const cases = activityCases(firstDay, 730, invoices);
  console.log(
    `\nlistActivity, ${QUERIES} queries a case, the cases in turn, after ${WARM_UP} untimed (goal: p95 ≤ ${GOAL_MS} ms); ${load()}`,
  );
  const [selectOne, plainPage, ...measured] = await timedInTurns([
    async () => rows(await db.execute(sql`select 1`)).length,
    async () => rows(await db.execute(sql`select * from console.audit_log order by seq desc limit 50`)).length,
    ...cases.map((c) => async (i: number) => {
      const query: ActivityQuery = activityQuerySchema.parse(c.query(i));
      return (await listActivity(db, query, TIME_ZONE)).pagination.total_records;
    }),
  ]);
  const base = percentile(plainPage.times, 50);
  const header = `  ${"case".padEnd(26)} ${"p50".padStart(9)} ${"p95".padStart(9)} ${"max".padStart(9)}  ${"p50 ÷ plain page".padStart(16)}  ${"matched (median)".padStart(16)}`;
  console.log(header);
  const line = (name: string, t: Timed, goal = "") =>
    console.log(
      `  ${name.padEnd(26)} ${ms(percentile(t.times, 50)).padStart(9)} ${ms(percentile(t.times, 95)).padStart(9)} ${ms(Math.max(...t.times)).padStart(9)}  ${`${(percentile(t.times, 50) / base).toFixed(1)}×`.padStart(16)}  ${count(percentile(t.results, 50)).padStart(16)}${goal}`,
    );
  line("baseline: select 1", selectOne);
  line("baseline: plain page", plainPage);
  const misses: string[] = [];
  for (const [k, c] of cases.entries()) {
    const p95 = percentile(measured[k].times, 95);
    if (p95 > GOAL_MS) misses.push(c.name);
    line(c.name, measured[k], p95 > GOAL_MS ? "  over the goal" : "");
  }
  console.log(misses.length ? `  Over ${GOAL_MS} ms at p95: ${misses.join("; ")}` : `  Every case within ${GOAL_MS} ms at p95.`);
  console.log(`  (${load()})`);

  // 3. Verification, beside one plain read of the same entries.
  const readStarted = performance.now();
  await db.execute(sql`select count(*), sum(length(hash) + length(detail::text)) from console.audit_log`);
  const readMs = performance.now() - readStarted;
  const verifyStarted = performance.now();
  const verified = await verifyChain(db);
  const verifyMs = performance.now() - verifyStarted;
  const rate = verified.verified / (verifyMs / 1000);
  console.log(
    `\nverifyChain: ${count(verified.verified)} entries in ${s(verifyMs)}, ${count(rate)} a second (goal: ≥ ${count(GOAL_RATE)})${rate < GOAL_RATE ? " — under the goal" : ""}; ` +
      `first broken: ${verified.first_broken ? `#${verified.first_broken.seq}` : "none"}`,
  );
  console.log(
    `  baseline, one plain read of every entry: ${s(readMs)} (${count(verified.verified / (readMs / 1000))} a second); ${load()}`,
  );
}

main()
  .catch((error) => {
    console.error(`bench:audit: ${error instanceof Error ? (error.stack ?? error.message) : error}`);
    process.exitCode = 1;
  })
  .finally(cleanup);
