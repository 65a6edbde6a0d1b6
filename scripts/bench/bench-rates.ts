// `npm run bench:rates`: N browsers polling the console's GET /api/rates, against one console and against two
// consoles sharing one PostgreSQL, with a local provider that counts its GET /rates calls. Prints requests
// served, errors, p50/p95 and the number of upstream calls. The goal: at most one upstream call per
// RATES_TTL_SECONDS in total, whatever the number of clients and instances, and no errors. Figures are
// printed, never asserted (ARCHITECTURE.md §6).
//
//   DATABASE_URL=postgres://… npm run bench:rates          one and two instances on that PostgreSQL
//   npm run bench:rates                                     one instance on a fresh PGlite (two need PostgreSQL)
//   npm run bench:rates -- --clients 50 --seconds 30 --interval-ms 500
//
// Options (also BENCH_CLIENTS / BENCH_SECONDS / BENCH_INTERVAL_MS / RATES_TTL_SECONDS in the environment):
//   --clients N        concurrent clients (default 100), spread round-robin over the instances
//   --seconds S        how long each run polls (default 60, at most 600)
//   --interval-ms I    each client's pause between its requests (default 1000)
//   --ttl S            RATES_TTL_SECONDS given to the consoles (default 15)
//   --max-requests M   stop a run after M requests in all (default 100000)
//
// The app must be built (`npx next build`); the consoles run the current build with test/console-server.ts.
// On PostgreSQL the run empties console.rates_cache first, so each run starts with no cached rates.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type ConsoleServer, startConsoleServer } from "@/test/console-server";
import { option } from "./bench-option";
import { percentile, sleep } from "./kit";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
process.chdir(root);

type Options = { clients: number; seconds: number; intervalMs: number; ttl: number; maxRequests: number; databaseUrl: string | undefined };

function parseOptions(argv: string[]): Options {
  return {
    clients: option(argv, "clients", "BENCH_CLIENTS", 100, 2_000),
    seconds: option(argv, "seconds", "BENCH_SECONDS", 60, 600),
    intervalMs: option(argv, "interval-ms", "BENCH_INTERVAL_MS", 1_000, 60_000),
    ttl: option(argv, "ttl", "RATES_TTL_SECONDS", 15, 3_600),
    maxRequests: option(argv, "max-requests", "BENCH_MAX_REQUESTS", 100_000, 1_000_000),
    databaseUrl: process.env.DATABASE_URL || undefined,
  };
}

/** The provider: GET /rates like the sandbox's (60 a minute per key, 429 beyond), counting every call. */
async function startProvider(): Promise<{ url: string; calls: () => number; reset: () => void; close: () => Promise<void> }> {
  let calls = 0;
  let window = 0;
  let inWindow = 0;
  const server: Server = createServer((req, res) => {
    const url = req.url ?? "";
    if (url.startsWith("/api/v1/rates")) {
      calls++;
      const minute = Math.floor(Date.now() / 60_000);
      if (minute !== window) [window, inWindow] = [minute, 0];
      if (++inWindow > 60) {
        res
          .writeHead(429, { "content-type": "application/problem+json", "retry-after": String(60 - (Math.floor(Date.now() / 1000) % 60)) })
          .end('{"status":429,"title":"Too many requests"}');
        return;
      }
      const wobble = 1 + Math.sin(minute) * 0.01;
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ rates: { BTC: 61234.5 * wobble, ETH: 3180.12 * wobble, USDT: 0.92 } }));
      return;
    }
    if (url.startsWith("/api/v1/currencies")) {
      res
        .writeHead(200, { "content-type": "application/json" })
        .end('{"currencies":[{"code":"BTC","name":"Bitcoin"},{"code":"ETH","name":"Ether"},{"code":"USDT","name":"Tether"}]}');
      return;
    }
    res.writeHead(404, { "content-type": "application/json" }).end('{"message":"not here"}');
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`,
    calls: () => calls,
    reset: () => {
      calls = 0;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function emptyCache(databaseUrl: string | undefined): Promise<void> {
  if (!databaseUrl) return;
  const { Client } = await import("pg");
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("delete from console.rates_cache where id = 'default'").catch(() => {});
  } finally {
    await client.end();
  }
}

type Result = { served: number; errors: number; stale: number; statuses: Map<number, number>; latencies: number[] };

async function poll(consoles: ConsoleServer[], o: Options): Promise<Result> {
  const result: Result = { served: 0, errors: 0, stale: 0, statuses: new Map(), latencies: [] };
  const deadline = Date.now() + o.seconds * 1000;
  let sent = 0;
  const client = async (i: number) => {
    const target = consoles[i % consoles.length];
    const cookie = target.sessions.roles.viewer;
    // Spread the clients' first requests over one interval, as browsers opening the page at different times.
    await sleep(Math.floor((i / o.clients) * o.intervalMs));
    while (Date.now() < deadline && sent < o.maxRequests) {
      sent++;
      const started = performance.now();
      try {
        const response = await fetch(`${target.url}/api/rates`, { headers: { cookie }, signal: AbortSignal.timeout(30_000) });
        const body = (await response.json()) as { stale?: boolean };
        result.latencies.push(performance.now() - started);
        result.statuses.set(response.status, (result.statuses.get(response.status) ?? 0) + 1);
        if (response.ok) {
          result.served++;
          if (body.stale) result.stale++;
        } else result.errors++;
      } catch {
        result.errors++;
      }
      await sleep(o.intervalMs);
    }
  };
  await Promise.all(Array.from({ length: o.clients }, (_, i) => client(i)));
  return result;
}

async function run(label: string, instances: number, o: Options, provider: Awaited<ReturnType<typeof startProvider>>): Promise<void> {
  await emptyCache(o.databaseUrl);
  const env: Record<string, string> = {
    INVOICING_API_URL: provider.url,
    INVOICING_API_KEY: "sk_test_bench",
    RATES_TTL_SECONDS: String(o.ttl),
    ...(o.databaseUrl ? { DATABASE_URL: o.databaseUrl } : {}),
  };
  const consoles: ConsoleServer[] = [];
  try {
    for (let i = 0; i < instances; i++) consoles.push(await startConsoleServer(env));
    provider.reset();
    const started = Date.now();
    const r = await poll(consoles, o);
    const seconds = (Date.now() - started) / 1000;
    const sorted = r.latencies.sort((a, b) => a - b);
    const calls = provider.calls();
    const allowed = Math.ceil(seconds / o.ttl) + 1;
    console.log(`\n${label}: ${instances} console instance(s), ${o.clients} clients every ${o.intervalMs} ms for ${seconds.toFixed(1)} s`);
    console.log(`  requests served   ${r.served} (${(r.served / seconds).toFixed(1)}/s), of them stale ${r.stale}`);
    console.log(`  errors            ${r.errors}${r.errors ? `  statuses ${JSON.stringify(Object.fromEntries(r.statuses))}` : ""}`);
    console.log(`  latency           p50 ${percentile(sorted, 50).toFixed(1)} ms   p95 ${percentile(sorted, 95).toFixed(1)} ms`);
    console.log(`  upstream calls    ${calls}   (TTL ${o.ttl} s: at most ${allowed} in ${seconds.toFixed(0)} s)`);
  } finally {
    for (const c of consoles) await c.stop();
  }
}

async function main() {
  const o = parseOptions(process.argv.slice(2));
  const provider = await startProvider();
  try {
    await run("One instance", 1, o, provider);
    if (o.databaseUrl) await run("Two instances, one PostgreSQL", 2, o, provider);
    else console.log("\nTwo instances need a shared PostgreSQL: set DATABASE_URL to run them.");
  } finally {
    await provider.close();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
