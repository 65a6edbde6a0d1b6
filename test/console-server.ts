// Tests only: a real console, as `npm start` runs it (scripts/server/server.mjs over the current build), on a free
// port with a fresh database, for the Vitest suites that must go through real HTTP (test/http) and the
// browser specs that need other settings than the shared test server (another provider). Needs `next build`
// first; `npm test` builds before anything else.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import type { TestSessions } from "./prepare-console";

const root = path.resolve(import.meta.dirname, "..");

export type ConsoleServer = {
  url: string;
  sessions: TestSessions;
  /** The server's process (to signal it), everything it wrote so far, and its PGlite folder. */
  child: ChildProcess;
  output: () => string;
  dataDir: string;
  stop: () => Promise<void>;
};

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

/**
 * `extraEnv` overrides the defaults: `DATABASE_URL` puts the console on a PostgreSQL server instead of its own
 * fresh PGlite folder, and several consoles started with the same one share it (as the rates benchmark does).
 * `nodeArgs` go to the server's node (`--cpu-prof` for scripts/bench/profile-overhead.ts).
 */
export async function startConsoleServer(
  extraEnv: Record<string, string> = {},
  { nodeArgs = [], publicHost = "127.0.0.1" }: { nodeArgs?: string[]; publicHost?: string } = {},
): Promise<ConsoleServer> {
  if (!existsSync(path.join(root, ".next", "BUILD_ID"))) {
    throw new Error("No build: run `npx next build` first (`npm test` does), then this suite.");
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), "invoice-console-http-"));
  const port = await freePort();
  const listening = `http://127.0.0.1:${port}`;
  // The address people use; "localhost" where the browser needs a host name (WebAuthn refuses an IP address).
  const url = `http://${publicHost}:${port}`;
  // DATABASE_URL set even to empty (read as unset), so one in the shell cannot leak in.
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: path.join(dir, "data"),
    DATABASE_URL: "",
    PORT: String(port),
    PUBLIC_URL: url,
    NODE_ENV: "production",
    // Against another provider admins would need a second factor; a suite that tests that says so in extraEnv.
    TWO_FACTOR_REQUIRED_ROLES: "",
    ...extraEnv,
  };
  const sessionsFile = path.join(dir, "sessions.json");
  const output: string[] = [];
  const run = (args: string[]): ChildProcess => {
    const child = spawn(process.execPath, args, { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.on("data", (chunk: Buffer) => output.push(String(chunk)));
    child.stderr.on("data", (chunk: Buffer) => output.push(String(chunk)));
    return child;
  };

  const prepared = await exited(
    run([path.join(root, "node_modules/tsx/dist/cli.mjs"), "--conditions=react-server", "test/prepare-console.ts", sessionsFile]),
  );
  if (prepared !== 0) throw new Error(`test/prepare-console.ts failed:\n${output.join("")}`);
  const server = run([...nodeArgs, "scripts/server/server.mjs", "-H", "127.0.0.1"]);
  await waitUntilUp(listening, server, output);

  return {
    url,
    sessions: JSON.parse(readFileSync(sessionsFile, "utf8")),
    child: server,
    output: () => output.join(""),
    dataDir: env.DATA_DIR!,
    stop: async () => {
      server.kill("SIGTERM");
      await exited(server);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once("exit", (code) => resolve(code)));
}

async function waitUntilUp(url: string, server: ChildProcess, output: string[]): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`The console exited with ${server.exitCode}:\n${output.join("")}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  server.kill("SIGKILL");
  throw new Error(`The console did not answer within 60 s:\n${output.join("")}`);
}
