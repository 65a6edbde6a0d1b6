// What the benchmarks share: ports, percentiles, figures and the built console as a child process. Figures are
// printed, never asserted (ARCHITECTURE.md §6).
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
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

export type ConsoleServer = { base: string; stop: () => Promise<void> };

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
    if ((await fetch(`${base}/api/health`).catch(() => null))?.ok) return { base, stop };
    if (child.exitCode !== null || i > 600) {
      await stop();
      throw new Error("the console did not start within 5 minutes");
    }
    await sleep(500);
  }
}
