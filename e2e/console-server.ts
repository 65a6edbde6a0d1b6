import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";

/**
 * A console of its own for a spec that needs other settings than the shared test server (another provider,
 * another timeout): `next start` of the existing build on a free port, with a fresh data folder. Stop it
 * with `stop()`; the folder goes with it.
 */
export type ConsoleServer = { url: string; stop: () => Promise<void> };

export async function startConsoleServer(env: Record<string, string>, options: { timeoutMs?: number } = {}): Promise<ConsoleServer> {
  const port = await freePort();
  const runDir = mkdtempSync(path.join(os.tmpdir(), "invoice-console-e2e-own-"));
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(path.join("node_modules", ".bin", "next"), ["start", "-p", String(port), "-H", "127.0.0.1"], {
    // Playwright runs from the project root, where the build is.
    cwd: process.cwd(),
    env: {
      ...process.env,
      PORT: String(port),
      PUBLIC_URL: url,
      DATA_DIR: path.join(runDir, "data"),
      // Set explicitly, even to empty (read as unset), so a DATABASE_URL in the shell cannot leak in.
      DATABASE_URL: "",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));

  const stop = async () => {
    await exit(child);
    rmSync(runDir, { recursive: true, force: true });
  };
  try {
    await waitUntilUp(url, child, options.timeoutMs ?? 120_000);
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}\n--- next start said:\n${output.slice(-4000)}`);
  }
  return { url, stop };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitUntilUp(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`next start exited with ${child.exitCode}`);
    // The sign-in page needs no session and answers once the server (and its database) is ready.
    const ok = await fetch(`${url}/login`).then((r) => r.ok, () => false);
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error(`next start did not answer on ${url} within ${timeoutMs / 1000} s`);
}

async function exit(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
  await exited;
  clearTimeout(timer);
}
