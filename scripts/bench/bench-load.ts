// `npm run bench:load`: N signed-in clients looping over the console's GET /api/invoices (random filters,
// sorts, pages) and GET /api/invoices/[id], against one console (PGlite) and against two consoles sharing one
// PostgreSQL, each on the demo data (2,400 invoices of the embedded sandbox). Prints requests served, errors
// by status, p50/p95/p99 (answered requests; and of the 503s alone), the calls that reached the invoicing API,
// and each console's RSS at start, peak and end. `--soak` runs 30 clients for 10 minutes against one console
// and prints its RSS each minute. Figures are printed, never asserted (ARCHITECTURE.md §6).
//
//   npm run bench:load                                   200 clients, 60 s: one instance, then two on PostgreSQL
//   npm run bench:load -- --clients 100 --seconds 30 --only one
//   DATABASE_URL=postgres://… npm run bench:load -- --only two
//   npm run bench:load -- --soak [--seconds 600]
//   npm run bench:load -- --attack [--clients 100 --seconds 30]
//   npm run bench:load -- --ignore-retry-after --only one
//
// Options (also BENCH_CLIENTS / BENCH_SECONDS in the environment):
//   --clients N      concurrent clients (default 200; 30 with --soak), spread round-robin over the instances
//   --seconds S      how long each run lasts (default 60; 600 with --soak)
//   --only one|two   run only the single-instance or the two-instance case
//   --soak           30 clients for 10 minutes on one instance, RSS each minute
//   --attack         one instance (PGlite), 100 clients: a quiet run, then the same while 16 connections send
//                    POST bodies at one byte every 5 s (to the inbox, the sandbox's archive, a page's server
//                    action), each reopened when the server closes it; prints both and their ratios
//   --ignore-retry-after  clients ask again at once after a 503, as a hostile client would
//
// Two instances need PostgreSQL: DATABASE_URL, or else a throwaway PostgreSQL 15 cluster this script starts
// (from /usr/lib/postgresql/15/bin, as root through `runuser -u postgres`) and removes afterwards.
// Each console's calls to the invoicing API are counted by a small HTTP proxy in front of its own sandbox
// (INVOICING_API_URL points at the proxy), so the count is what really left the console, coalescing included.
// The app must be built (`npx next build`); the consoles run the current build with test/console-server.ts.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type ConsoleServer, startConsoleServer } from "@/test/console-server";
import { slowBody } from "@/test/http/raw-requests";
import { NO_POSTGRES_HINT, startTestPostgres } from "@/test/postgres";
import { option } from "./bench-option";
import { percentile, sleep } from "./kit";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
process.chdir(root);

type Options = { clients: number; seconds: number; only: "one" | "two" | null; soak: boolean; attack: boolean; honourRetryAfter: boolean };

function parseOptions(argv: string[]): Options {
  const soak = argv.includes("--soak");
  const i = argv.indexOf("--only");
  const only = i >= 0 ? argv[i + 1] : null;
  if (only !== null && only !== "one" && only !== "two") throw new Error(`--only must be one or two (got ${only})`);
  const attack = argv.includes("--attack");
  return {
    soak,
    only,
    attack,
    honourRetryAfter: !argv.includes("--ignore-retry-after"),
    clients: option(argv, "clients", "BENCH_CLIENTS", soak ? 30 : attack ? 100 : 200, 2_000),
    seconds: option(argv, "seconds", "BENCH_SECONDS", soak ? 600 : 60, 3_600),
  };
}

/** An HTTP proxy in front of one console's sandbox that counts the calls reaching it. */
async function startCountingProxy() {
  let target = "";
  let calls = 0;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const server = http.createServer((req, res) => {
    calls++;
    if (!target) return void res.writeHead(503, { "retry-after": "1" }).end();
    const upstream = http.request(`${target}${req.url}`, { method: req.method, headers: req.headers, agent }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on("error", () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    set target(origin: string) {
      target = origin;
    },
    calls: () => calls,
    reset: () => void (calls = 0),
    close: () => {
      server.closeAllConnections();
      agent.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
type Proxy = Awaited<ReturnType<typeof startCountingProxy>>;
type Instance = { console: ConsoleServer; proxy: Proxy; pid: number };

/** The process listening on a port (the console's server), from `ss`. */
function listeningPid(url: string): number {
  const port = new URL(url).port;
  const out = execFileSync("ss", ["-ltnpH", `sport = :${port}`]).toString();
  const pid = /pid=(\d+)/.exec(out)?.[1];
  if (!pid) throw new Error(`No process found listening on port ${port}`);
  return Number(pid);
}

function rssMb(pid: number): number {
  try {
    const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]);
    return Math.round(kb / 1024);
  } catch {
    return NaN;
  }
}

async function startInstances(count: number, databaseUrl: string | undefined, extraEnv: Record<string, string> = {}): Promise<Instance[]> {
  const instances: Instance[] = [];
  for (let i = 0; i < count; i++) {
    console.log(`  starting console ${i + 1} of ${count}…`);
    const proxy = await startCountingProxy();
    const consoleServer = await startConsoleServer({
      INVOICING_API_URL: `${proxy.url}/sandbox/api/v1`,
      INVOICING_API_KEY: "sk_test_demo_full",
      SANDBOX_ENABLED: "true",
      ...extraEnv,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    });
    proxy.target = consoleServer.url;
    // The sandbox seeds its 2,400 demo invoices on its first request: before the clock starts, one at a time.
    const warm = await fetch(`${consoleServer.url}/api/invoices`, {
      headers: { cookie: consoleServer.sessions.roles.viewer },
      signal: AbortSignal.timeout(300_000),
    });
    if (!warm.ok) throw new Error(`Warm-up answered ${warm.status}: ${await warm.text()}`);
    instances.push({ console: consoleServer, proxy, pid: listeningPid(consoleServer.url) });
  }
  return instances;
}

const STATUSES = ["new", "pending", "completed", "expired", "cancelled", "paid_partial", "archived"];
const SORTS = ["created_at", "updated_at", "fiat_amount", "crypto_amount"];
const pick = <T>(items: T[]): T => items[Math.floor(Math.random() * items.length)];

/** A list request as people make them: mostly the first pages, sometimes a filter, any sort. */
function randomListPath(): string {
  const q = new URLSearchParams();
  if (Math.random() < 0.4) q.set("status", pick(STATUSES));
  if (Math.random() < 0.3) q.set("currency", pick(["BTC", "ETH", "USDT"]));
  q.set("sort_by", pick(SORTS));
  q.set("sort_order", pick(["asc", "desc"]));
  q.set("page", String(1 + Math.floor(Math.random() ** 2 * 10)));
  q.set("page_size", pick(["20", "20", "50"]));
  return `/api/invoices?${q}`;
}

class ClientTimeout extends Error {}

/** A request and its body within `seconds`, however the connection behaves (a hard timer, not only the signal). */
async function withinSeconds<T>(seconds: number, task: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new ClientTimeout());
    }, seconds * 1000);
  });
  try {
    return await Promise.race([task(controller.signal), expired]);
  } finally {
    clearTimeout(timer);
  }
}

type Result = { statuses: Map<string, number>; answered: number[]; shed: number[]; served: number };

async function load(
  instances: Instance[],
  clients: number,
  seconds: number,
  honourRetryAfter: boolean,
  onTick?: (elapsed: number) => void,
): Promise<Result> {
  const result: Result = { statuses: new Map(), answered: [], shed: [], served: 0 };
  const deadline = Date.now() + seconds * 1000;
  const ids: string[] = [];
  const count = (key: string) => result.statuses.set(key, (result.statuses.get(key) ?? 0) + 1);
  const client = async (i: number) => {
    const { console: target } = instances[i % instances.length];
    const cookie = target.sessions.roles.viewer;
    await sleep(Math.floor((i / clients) * 1000));
    while (Date.now() < deadline) {
      const detail = ids.length > 0 && Math.random() < 0.3;
      const url = detail ? `/api/invoices/${encodeURIComponent(pick(ids))}` : randomListPath();
      const started = performance.now();
      try {
        const { response, body } = await withinSeconds(30, async (signal) => {
          const response = await fetch(`${target.url}${url}`, { headers: { cookie }, signal });
          return { response, body: (await response.json().catch(() => null)) as { items?: { invoice_id: string }[] } | null };
        });
        const ms = performance.now() - started;
        count(String(response.status));
        if (response.ok) {
          result.served++;
          result.answered.push(ms);
          if (body?.items?.length && ids.length < 500) ids.push(body.items[0].invoice_id);
        } else if (response.status === 503) {
          result.shed.push(ms);
          // What the UI does: wait as long as Retry-After asks before this client's next request.
          const wait = Number(response.headers.get("retry-after") ?? 2);
          if (honourRetryAfter) await sleep(Math.min(wait, 10) * 1000);
        }
      } catch (error) {
        count(error instanceof ClientTimeout ? "client timeout (30 s)" : "network error");
      }
    }
  };
  const started = Date.now();
  const ticker = onTick && setInterval(() => onTick((Date.now() - started) / 1000), 60_000);
  await Promise.all(Array.from({ length: clients }, (_, i) => client(i)));
  if (ticker) clearInterval(ticker);
  return result;
}

const ms = (value: number) => (Number.isNaN(value) ? "—" : value < 1000 ? `${Math.round(value)} ms` : `${(value / 1000).toFixed(2)} s`);

type Summary = { served: number; servedPerSecond: number; p95: number; errors: number };

async function run(label: string, count: number, o: Options, databaseUrl: string | undefined): Promise<void> {
  console.log(`\n## ${label}: ${o.clients} clients for ${o.seconds} s${o.honourRetryAfter ? "" : ", ignoring Retry-After"}`);
  // Clients that ignore Retry-After: the server logs each request (LOG_FORMAT=json), so that how long it took
  // to refuse one is known on both sides of the connection.
  const instances = await startInstances(count, databaseUrl, o.honourRetryAfter ? {} : { LOG_FORMAT: "json" });
  try {
    await measure(instances, o);
  } finally {
    await stopInstances(instances);
  }
}

/** One timed run over running instances: prints its table row and RSS, and returns its figures. */
async function measure(instances: Instance[], o: Options): Promise<Summary> {
  const rss = instances.map((i) => ({ start: rssMb(i.pid), peak: rssMb(i.pid), end: NaN }));
  const sampler = setInterval(() => instances.forEach((inst, n) => (rss[n].peak = Math.max(rss[n].peak, rssMb(inst.pid)))), 500);
  instances.forEach((i) => i.proxy.reset());
  console.log("  load…");
  const started = Date.now();
  const r = await load(
    instances,
    o.clients,
    o.seconds,
    o.honourRetryAfter,
    o.soak
      ? (t) => console.log(`  minute ${Math.round(t / 60)}: RSS ${instances.map((i) => `${rssMb(i.pid)} MB`).join(" / ")}`)
      : undefined,
  );
  const elapsed = (Date.now() - started) / 1000;
  clearInterval(sampler);
  await sleep(2_000);
  instances.forEach((inst, n) => (rss[n].end = rssMb(inst.pid)));

  const answered = r.answered.sort((a, b) => a - b);
  const shed = r.shed.sort((a, b) => a - b);
  const total = [...r.statuses.values()].reduce((a, b) => a + b, 0);
  const errors = [...r.statuses].filter(([status]) => status !== "200");
  const upstream = instances.reduce((sum, i) => sum + i.proxy.calls(), 0);
  console.log(
    `| Requests | Served (200) | Served/s | Errors by status | p50 | p95 | p99 | 503 p95 | 503 max | 503s over 3 s | Upstream calls |`,
  );
  console.log(`|---|---|---|---|---|---|---|---|---|---|---|`);
  console.log(
    `| ${total} | ${r.served} | ${(r.served / elapsed).toFixed(1)} | ${errors.map(([s, n]) => `${n} × ${s}`).join(", ") || "none"} | ${ms(percentile(answered, 50))} | ${ms(percentile(answered, 95))} | ${ms(percentile(answered, 99))} | ${ms(percentile(shed, 95))} | ${ms(shed.at(-1) ?? NaN)} | ${shed.filter((t) => t > 3_000).length} | ${upstream} |`,
  );
  rss.forEach((m, n) => console.log(`  instance ${n + 1} RSS: start ${m.start} MB, peak ${m.peak} MB, end ${m.end} MB`));
  if (!o.honourRetryAfter) {
    // The server's own time for each 503 (from its handler's start to the answer sent), from its log lines.
    const refusals = instances
      .flatMap((i) => i.console.output().split("\n"))
      .filter((line) => line.includes('"status":503'))
      .map((line) => (JSON.parse(line) as { duration_ms: number }).duration_ms)
      .sort((a, b) => a - b);
    console.log(
      `  503s as the server timed them: ${refusals.length}, p99 ${ms(percentile(refusals, 99))}, max ${ms(refusals.at(-1) ?? NaN)}, over 3 s ${refusals.filter((t) => t > 3_000).length}`,
    );
  }
  return { served: r.served, servedPerSecond: r.served / elapsed, p95: percentile(answered, 95), errors: total - r.served };
}

async function stopInstances(instances: Instance[]): Promise<void> {
  for (const i of instances) {
    await i.console.stop();
    await i.proxy.close();
  }
}

/**
 * The same clients on the same console, quiet and then while `connections` slow bodies stay open
 * (each reopened as soon as the server closes it at its body deadline). Prints the ratios of the two runs.
 */
async function underAttack(o: Options, connections = 16): Promise<void> {
  console.log(
    `\n## Under attack, one instance (PGlite): ${o.clients} clients for ${o.seconds} s, quiet and then beside ${connections} slow bodies`,
  );
  const instances = await startInstances(1, undefined);
  const target = instances[0].console;
  const paths: [string, Record<string, string>][] = [
    ["/api/webhook-inbox", {}],
    ["/sandbox/api/v1/archived", { "api-key": "sk_test_demo_full" }],
    ["/login", { "next-action": "x", origin: target.url }],
  ];
  let attacking = true;
  let opened = 0;
  const open = (n: number) => {
    const [pathname, headers] = paths[n % paths.length];
    opened++;
    const slow = slowBody(target.url, pathname, headers, 5_000);
    void slow.answered.then(() => attacking && open(n));
    return slow;
  };
  try {
    console.log("### Quiet");
    const quiet = await measure(instances, o);
    console.log(`### Beside ${connections} slow bodies`);
    const slow = Array.from({ length: connections }, (_, n) => open(n));
    const attacked = await measure(instances, o);
    attacking = false;
    slow.forEach((s) => s.stop());
    console.log(`  slow-body connections opened during the run: ${opened} (the server closes each at its body deadline with a 408)`);
    const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
    console.log(
      `  attacked ÷ quiet: served/s ${ratio(attacked.servedPerSecond, quiet.servedPerSecond)}, p95 ${ratio(attacked.p95, quiet.p95)}, errors ${attacked.errors} vs ${quiet.errors} (goal: within 20%)`,
    );
  } finally {
    attacking = false;
    await stopInstances(instances);
  }
}

const o = parseOptions(process.argv.slice(2));
console.log(`bench:load on ${os.cpus().length} cores, Node ${process.version}`);
if (o.soak) {
  await run("Soak, one instance (PGlite)", 1, o, undefined);
} else if (o.attack) {
  await underAttack(o);
} else {
  if (o.only !== "two") await run("One instance (PGlite)", 1, o, undefined);
  if (o.only !== "one") {
    // A throwaway server, as the tests start one (test/postgres.ts), when no DATABASE_URL is given.
    const pg = process.env.DATABASE_URL ? null : await startTestPostgres();
    if (!process.env.DATABASE_URL && !pg) throw new Error(NO_POSTGRES_HINT);
    try {
      await run("Two instances sharing PostgreSQL", 2, o, process.env.DATABASE_URL ?? pg!.url);
    } finally {
      await pg?.stop();
    }
  }
}
process.exit(0);
