// What the benchmarks share: ports, percentiles, figures and the built console as a child process. Figures are
// printed, never asserted (ARCHITECTURE.md §6).
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "@/test/console-server";

export { freePort };

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
export const ms = (n: number) => `${n.toFixed(1)} ms`;
export const seconds = (n: number) => `${(n / 1000).toFixed(1)} s`;

/** The value below which `p` percent of `values` lie: the sorted values' element at ⌊p% × n⌋ (NaN when there are none). */
export const percentile = (values: number[], p: number) =>
  values.length ? [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))] : Number.NaN;

export type ConsoleServer = {
  base: string;
  stop: () => Promise<void>;
  /** CPU seconds the console's process has used so far (null off Linux). */
  cpuSeconds: () => number | null;
};

/**
 * CPU seconds (user and system, with the children it has reaped) of the process `which` names, or of every process
 * whose command `which` accepts; null off Linux or when the process has gone. On a machine whose hypervisor takes a
 * share, CPU time is steadier than the wall clock.
 */
export function cpuSeconds(which: number | ((command: string) => boolean)): number | null {
  if (process.platform !== "linux") return null;
  const read = (pid: string) => {
    try {
      return readFileSync(`/proc/${pid}/stat`, "utf8");
    } catch {
      return null; // ended meanwhile
    }
  };
  const stats =
    typeof which === "number"
      ? [read(String(which))]
      : readdirSync("/proc")
          .filter((e) => /^\d+$/.test(e))
          .map(read);
  if (typeof which === "number" && stats[0] === null) return null;
  let ticks = 0;
  for (const stat of stats) {
    if (stat === null) continue;
    // pid (command) state ppid …: the command may hold spaces and parentheses, so fields count from the last ")".
    const close = stat.lastIndexOf(")");
    if (typeof which !== "number" && !which(stat.slice(stat.indexOf("(") + 1, close))) continue;
    const fields = stat.slice(close + 2).split(" ");
    // utime, stime, cutime, cstime: fields 14–17 of the line, 12–15 after the command.
    for (const i of [11, 12, 13, 14]) ticks += Number(fields[i]);
  }
  return ticks / CLOCK_TICKS_PER_SECOND;
}
// USER_HZ, which Linux fixes at 100 for /proc on every architecture Node runs on.
const CLOCK_TICKS_PER_SECOND = 100;

/**
 * The built console (`scripts/server/server.mjs`, as production runs it) on a free port, with `env` over this
 * process's; resolves once /api/health answers. The server gets its own process group, so stop() reaches all of it.
 */
export async function startBuiltConsole(env: Record<string, string>): Promise<ConsoleServer> {
  if (!existsSync(path.join(root, ".next", "BUILD_ID"))) throw new Error("No build: run `npx next build` first.");
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // BENCH_SERVER_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof"): Node options for the served console only.
  const nodeArgs = process.env.BENCH_SERVER_NODE_ARGS?.split(/\s+/).filter(Boolean) ?? [];
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, "scripts/server/server.mjs", "-H", "127.0.0.1"], {
    cwd: root,
    detached: true,
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, NODE_ENV: "production", PORT: String(port), ...env },
  });
  const stop = async () => {
    if (!child.pid || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {}
    await Promise.race([exited, sleep(10_000)]);
  };
  for (let i = 0; ; i++) {
    if ((await fetch(`${base}/api/health`).catch(() => null))?.ok) {
      return { base, stop, cpuSeconds: () => (child.pid ? cpuSeconds(child.pid) : null) };
    }
    if (child.exitCode !== null || i > 600) {
      await stop();
      throw new Error("the console did not start within 5 minutes");
    }
    await sleep(500);
  }
}
