// `npm run profile:overhead`: where a console route's milliseconds go inside the server. Starts the built
// console (scripts/server/server.mjs, fresh PGlite folder, demo data) under `node --cpu-prof`, sends the direct
// sandbox call (the baseline) and then the console route a bounded number of sequential requests each, stops
// the server (which writes its profile), and prints for each the functions with the most CPU time taken while
// its requests ran (self and inclusive), mapped back to their source through the build's source maps, the self
// time per package, and what the console route adds to its baseline, function by function. Samples from
// start-up, warm-up and shutdown are left out: V8's profile clock and `process.hrtime` are one monotonic clock.
//
//   npm run profile:overhead                                        /api/invoices against /sandbox/api/v1/invoices
//   npm run profile:overhead -- --path /api/currencies --requests 2000 --top 40
//   npm run profile:overhead -- --path /api/health --baseline none --as nobody     the floor: no session at all
//
// The app must be built (`npx next build`); the raw profile is kept (its path is printed) for Chrome DevTools.
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { SourceMap } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startConsoleServer } from "@/test/console-server";
import { option } from "./bench-option";

type CallFrame = { functionName: string; url: string; lineNumber: number; columnNumber: number };
type ProfileNode = { id: number; callFrame: CallFrame; children?: number[] };
type Profile = { nodes: ProfileNode[]; startTime: number; endTime: number; samples: number[]; timeDeltas: number[] };

const argv = process.argv.slice(2);
const text = (name: string, fallback: string) => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1] : fallback);
const target = text("path", "/api/invoices?page=2&page_size=20");
/** The direct call the console route wraps, profiled in the same run: the difference is the console's own. */
const baseline = text("baseline", target.startsWith("/api/") ? `/sandbox/api/v1/${target.slice("/api/".length)}` : "none");
const role = text("as", "viewer");
const requests = option(argv, "requests", "PROFILE_REQUESTS", 1000, 100_000);
const warmUp = option(argv, "warm-up", "PROFILE_WARM_UP", 100, 10_000);
const top = option(argv, "top", "PROFILE_TOP", 30, 500);

const located = new Map<string, Located>();
const maps = new Map<string, SourceMap | null>();
const root = path.resolve(import.meta.dirname, "../..");

type Window = { path: string; from: number; to: number };
const paths = baseline === "none" ? [target] : [baseline, target];
const profileDir = mkdtempSync(path.join(os.tmpdir(), "invoice-console-profile-"));
console.log(`Starting the built console under --cpu-prof (profile in ${profileDir})…`);
const server = await startConsoleServer({}, { nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] });
const micros = () => Number(process.hrtime.bigint() / 1000n);
const windows: Window[] = [];
try {
  const send = async (url: string) => {
    const cookie = server.sessions.roles[role as "viewer"];
    const headers: Record<string, string> = url.startsWith("/sandbox/") ? { "api-key": "sk_test_demo_full" } : cookie ? { cookie } : {};
    const response = await fetch(server.url + url, { headers });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${url} answered ${response.status}; profile a route that answers 200.`);
  };
  for (const url of paths) for (let i = 0; i < warmUp; i++) await send(url);
  for (const url of paths) {
    const from = micros();
    for (let i = 0; i < requests; i++) await send(url);
    windows.push({ path: url, from, to: micros() });
  }
} finally {
  await server.stop();
}

const file = readdirSync(profileDir).find((name) => name.includes(`.${server.child.pid}.`));
if (!file) throw new Error(`The server wrote no profile into ${profileDir}.`);
const profile: Profile = JSON.parse(readFileSync(path.join(profileDir, file), "utf8"));
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parentOf = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);

type Tally = { total: number; self: Map<string, number>; inclusive: Map<string, number>; perPackage: Map<string, number> };
const add = (map: Map<string, number>, key: string, us: number) => map.set(key, (map.get(key) ?? 0) + us);

/** CPU time (µs over the whole window) by function and by package, from the samples taken within it. */
function tally({ from, to }: Window): Tally {
  const result: Tally = { total: 0, self: new Map(), inclusive: new Map(), perPackage: new Map() };
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i];
    if (t < from || t > to) continue;
    const node = byId.get(profile.samples[i])!;
    if (node.callFrame.functionName === "(idle)") continue;
    const us = i + 1 < profile.timeDeltas.length ? profile.timeDeltas[i + 1] : 0;
    result.total += us;
    const where = locate(node.callFrame);
    add(result.self, where.name, us);
    add(result.perPackage, where.pkg, us);
    const seen = new Set<string>();
    for (let id: number | undefined = node.id; id !== undefined; id = parentOf.get(id)) {
      const name = locate(byId.get(id)!.callFrame).name;
      if (!seen.has(name)) add(result.inclusive, name, us);
      seen.add(name);
    }
  }
  return result;
}

const ms = (us: number) => (us / 1000 / requests).toFixed(3).padStart(7);
const signed = (us: number) => `${us >= 0 ? "+" : "-"}${ms(Math.abs(us)).trim()}`.padStart(7);
const share = (us: number, total: number) => `${((100 * us) / total).toFixed(1).padStart(5)}%`;
const sorted = (map: Map<string, number>) => [...map].sort((a, b) => b[1] - a[1]);

const tallies = windows.map(tally);
for (const [i, { path: url }] of windows.entries()) {
  const { total, self, inclusive, perPackage } = tallies[i];
  console.log(`\n==== ${requests} requests to ${url}: ${ms(total).trim()} ms of sampled CPU per request (main thread) ====`);
  console.log(`\nself time per package (ms per request):`);
  for (const [name, us] of sorted(perPackage).slice(0, 20)) console.log(`  ${ms(us)} ${share(us, total)}  ${name}`);
  console.log(`\ntop ${top} functions by self time (ms per request):`);
  for (const [name, us] of sorted(self).slice(0, top)) console.log(`  ${ms(us)} ${share(us, total)}  ${name}`);
  console.log(`\ntop ${top} functions by inclusive time (ms per request; nested, so they overlap):`);
  for (const [name, us] of sorted(inclusive).slice(0, top)) console.log(`  ${ms(us)} ${share(us, total)}  ${name}`);
}
if (tallies.length === 2) {
  const [base, console_] = tallies;
  const delta = (a: Map<string, number>, b: Map<string, number>) =>
    new Map([...new Set([...a.keys(), ...b.keys()])].map((k) => [k, (b.get(k) ?? 0) - (a.get(k) ?? 0)]));
  console.log(`\n==== what ${target} adds to ${baseline}: ${signed(console_.total - base.total).trim()} ms of CPU per request ====`);
  console.log(`\nper package (ms per request):`);
  for (const [name, us] of sorted(delta(base.perPackage, console_.perPackage)).filter(([, us]) => Math.abs(us) / requests >= 5))
    console.log(`  ${signed(us)}  ${name}`);
  console.log(`\ntop ${top} functions by added self time (ms per request):`);
  for (const [name, us] of sorted(delta(base.self, console_.self)).slice(0, top)) console.log(`  ${signed(us)}  ${name}`);
  console.log(`\ntop ${top} functions by added inclusive time (ms per request):`);
  for (const [name, us] of sorted(delta(base.inclusive, console_.inclusive)).slice(0, top)) console.log(`  ${signed(us)}  ${name}`);
}
console.log(`\nRaw profile (Chrome DevTools can open it): ${path.join(profileDir, file)}`);

// ---- Mapping a frame back to its source ---------------------------------------------------------------

type Located = { name: string; pkg: string; own: boolean };

function locate(frame: CallFrame): Located {
  const key = `${frame.url}:${frame.lineNumber}:${frame.columnNumber}:${frame.functionName}`;
  let found = located.get(key);
  if (!found) located.set(key, (found = resolve(frame)));
  return found;
}

function resolve(frame: CallFrame): Located {
  let fn = frame.functionName || "(anonymous)";
  if (!frame.url) return { name: fn, pkg: fn.startsWith("(") ? fn : "(native)", own: false };
  let source = frame.url.startsWith("file://") ? fileURLToPath(frame.url) : frame.url;
  let line = frame.lineNumber + 1;
  const entry = sourceMapOf(source)?.findEntry(frame.lineNumber, frame.columnNumber);
  if (entry && "originalSource" in entry && entry.originalSource) {
    // Minified names read back from the map where it has them.
    const name = (entry as { name?: string }).name;
    if (name && fn.length <= 3) fn = name;
    source = /^[a-z]+:\/\//.test(entry.originalSource) ? entry.originalSource : path.resolve(path.dirname(source), entry.originalSource);
    line = entry.originalLine + 1;
  }
  source = source
    .replace(/^.*?\/node_modules\//, "node_modules/")
    .replace(/^(webpack|turbopack):\/\/\/?(\[project\]\/)?/, "")
    .replace(`${root}/`, "");
  return { name: `${fn}  ${source}:${line}`, pkg: packageOf(source), own: ownCode(source) !== null };
}

function packageOf(source: string): string {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source);
  if (pkg) return pkg[1];
  if (source.startsWith("node:")) return "node (built-in)";
  if (source.startsWith("wasm:")) return "wasm (PGlite's PostgreSQL)";
  if (source.startsWith("next/")) return "next";
  return ownCode(source) ?? source.split("/").slice(0, 2).join("/");
}

/** This repository's own modules (by folder), or null for a library's. */
function ownCode(source: string): string | null {
  return /^(lib|app|scripts|test)\/[^/]+|^proxy\.ts/.exec(source)?.[0] ?? null;
}

function sourceMapOf(file: string): SourceMap | null {
  if (!maps.has(file)) {
    let map: SourceMap | null = null;
    try {
      map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, "utf8")));
    } catch {
      // No map beside it (node_modules loaded as they are, Node's own modules).
    }
    maps.set(file, map);
  }
  return maps.get(file)!;
}
