// `npm run bench:overhead`: what one request costs when it does almost nothing, sequentially, so that the fixed
// overhead (server layer, proxy, session read, validation, logging) shows instead of queueing. Starts the
// built console (scripts/server/server.mjs, as `npm start` runs it) on a fresh PGlite folder with the demo data, then
// times each route one request after another and prints p50/p95/p99 and the console-to-sandbox ratios. A
// console request pays the console's route and the sandbox's (the embedded upstream), so the ratio against
// the direct sandbox call is what the console adds. Figures are printed, never asserted (ARCHITECTURE.md §6).
//
//   npm run bench:overhead
//   npm run bench:overhead -- --requests 500 --warm-up 50
//   LOG_FORMAT=json npm run bench:overhead        the same with a JSON log line per request
//   DATABASE_URL=postgres://… npm run bench:overhead   on PostgreSQL (an empty database: it is migrated and seeded)
//
// The app must be built (`npx next build`); an existing build is used as it is, so rebuild after a change.
import { performance } from "node:perf_hooks";
import { startConsoleServer } from "@/test/console-server";
import { cpuSeconds, percentile } from "./kit";

type Probe = { name: string; path: string; headers: (cookie: string) => Record<string, string> };

const SANDBOX_KEY = { "api-key": "sk_test_demo_full" };
const PROBES: Probe[] = [
  { name: "sandbox  GET /sandbox/api/v1/currencies", path: "/sandbox/api/v1/currencies", headers: () => SANDBOX_KEY },
  { name: "console  GET /api/currencies", path: "/api/currencies", headers: (cookie) => ({ cookie }) },
  { name: "console  GET /api/health", path: "/api/health", headers: () => ({}) },
  // The same route with a viewer's session: the difference is the session read (the answer is the same).
  { name: "console  GET /api/health (signed in)", path: "/api/health", headers: (cookie) => ({ cookie }) },
  { name: "console  GET /api/health/ready", path: "/api/health/ready", headers: () => ({}) },
  { name: "sandbox  GET /sandbox/api/v1/invoices", path: "/sandbox/api/v1/invoices?page=2&page_size=20", headers: () => SANDBOX_KEY },
  { name: "console  GET /api/invoices", path: "/api/invoices?page=2&page_size=20", headers: (cookie) => ({ cookie }) },
];
/** Console route → the direct sandbox call it wraps: the ratio is the console's own cost. */
const RATIOS: [string, string][] = [
  ["console  GET /api/currencies", "sandbox  GET /sandbox/api/v1/currencies"],
  ["console  GET /api/invoices", "sandbox  GET /sandbox/api/v1/invoices"],
];

function option(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  if (index < 0) return fallback;
  const value = Number(process.argv[index + 1]);
  if (!Number.isInteger(value) || value < 1) {
    console.error(`--${name} must be a whole number above 0.`);
    process.exit(2);
  }
  return value;
}

const requests = option("requests", 300);
const warmUp = option("warm-up", 30);
const CPU_ROUNDS = 3;

/** User + system CPU time of a process so far, in ms (Linux /proc; null elsewhere). */
function serverCpuMs(pid: number): number | null {
  const used = cpuSeconds(pid);
  return used === null ? null : used * 1000;
}

async function time(url: string, headers: Record<string, string>): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, { headers });
  await response.arrayBuffer();
  const elapsed = performance.now() - started;
  if (!response.ok) throw new Error(`${url} answered ${response.status}; the benchmark needs every answer to be 200.`);
  return elapsed;
}

const settings = Object.fromEntries(
  ["LOG_FORMAT", "DATABASE_URL"].flatMap((name) => (process.env[name] ? [[name, process.env[name]!]] : [])),
);
console.log(
  `Starting the built console (${settings.DATABASE_URL ? "PostgreSQL at DATABASE_URL" : "fresh PGlite folder"}, demo data)${settings.LOG_FORMAT ? `, LOG_FORMAT=${settings.LOG_FORMAT}` : ""}…`,
);
const server = await startConsoleServer(settings);
try {
  const cookie = server.sessions.roles.viewer;
  const results = new Map<string, { p50: number; p95: number; p99: number }>();
  // Interleaved rounds, so that a slow moment of a shared machine falls on every route alike.
  for (const probe of PROBES) for (let i = 0; i < warmUp; i++) await time(server.url + probe.path, probe.headers(cookie));
  const samples = new Map<string, number[]>(PROBES.map((p) => [p.name, []]));
  for (let i = 0; i < requests; i++) {
    for (const probe of PROBES) samples.get(probe.name)!.push(await time(server.url + probe.path, probe.headers(cookie)));
  }
  console.log(`\n${requests} sequential requests per route (after ${warmUp} warm-up), milliseconds:\n`);
  console.log(`${"route".padEnd(42)} ${"p50".padStart(7)} ${"p95".padStart(7)} ${"p99".padStart(7)}`);
  for (const [name, values] of samples) {
    const sorted = values.sort((a, b) => a - b);
    const r = { p50: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99) };
    results.set(name, r);
    console.log(`${name.padEnd(42)} ${r.p50.toFixed(2).padStart(7)} ${r.p95.toFixed(2).padStart(7)} ${r.p99.toFixed(2).padStart(7)}`);
  }
  console.log("\nratios (p50, p95): a console route ÷ the sandbox call it wraps:");
  for (const [consoleRoute, direct] of RATIOS) {
    const a = results.get(consoleRoute)!;
    const b = results.get(direct)!;
    console.log(`  ${consoleRoute.trim().padEnd(40)} ${(a.p50 / b.p50).toFixed(2)}×  ${(a.p95 / b.p95).toFixed(2)}×`);
  }
  // Wall time on a shared machine moves with everyone else's load; the server's own CPU time per request
  // does not (much): it is what the fixed overhead costs. Read from /proc (Linux), one route at a time.
  const cpu = serverCpuMs(server.child.pid!);
  if (cpu !== null) {
    console.log(
      `\nserver CPU per request, median of ${CPU_ROUNDS} rounds of ${requests} requests per route (one route at a time; a console row includes its sandbox call):\n`,
    );
    const rounds = new Map<string, number[]>(PROBES.map((p) => [p.name, []]));
    for (let round = 0; round < CPU_ROUNDS; round++) {
      for (const probe of PROBES) {
        const before = serverCpuMs(server.child.pid!)!;
        for (let i = 0; i < requests; i++) await time(server.url + probe.path, probe.headers(cookie));
        rounds.get(probe.name)!.push((serverCpuMs(server.child.pid!)! - before) / requests);
      }
    }
    const perRoute = new Map<string, number>();
    for (const [name, values] of rounds) {
      perRoute.set(
        name,
        percentile(
          values.sort((a, b) => a - b),
          50,
        ),
      );
      console.log(
        `${name.padEnd(42)} ${perRoute.get(name)!.toFixed(2).padStart(7)} ms   (rounds: ${values.map((v) => v.toFixed(1)).join(", ")})`,
      );
    }
    console.log("\nCPU ratios: a console route ÷ the sandbox call it wraps:");
    for (const [a, b] of RATIOS) console.log(`  ${a.trim().padEnd(40)} ${(perRoute.get(a)! / perRoute.get(b)!).toFixed(2)}×`);
    const cpuOf = (name: string) => perRoute.get(name)!;
    console.log("\nwhere the console's own CPU goes (differences of the rows above, ms per request):");
    console.log(
      `  the session read (health signed in − anonymous)          ${(cpuOf("console  GET /api/health (signed in)") - cpuOf("console  GET /api/health")).toFixed(2).padStart(6)}`,
    );
    for (const [a, b] of RATIOS)
      console.log(
        `  ${a.trim().slice(9).padEnd(22)} − its sandbox call (all it adds)         ${(cpuOf(a) - cpuOf(b)).toFixed(2).padStart(6)}`,
      );
    console.log(`  the floor: one console API route, no session (health)      ${cpuOf("console  GET /api/health").toFixed(2).padStart(6)}`);
  }
} finally {
  await server.stop();
}
