// Tests only: a PostgreSQL database of the test's own. With TEST_POSTGRES_URL (CI's server; any database on
// it, used only to connect) a fresh database is created there and dropped afterwards. Without it, and when
// PostgreSQL's server programs are installed (Debian keeps them in /usr/lib/postgresql/<version>/bin), a
// throwaway cluster is started on a free port and removed afterwards. With neither, the suite is skipped
// with a warning saying how to provide one (never silently: the skip is counted and the reason printed).
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { freePort } from "./console-server";

export type TestPostgres = { url: string; stop: () => Promise<void> };

export const NO_POSTGRES_HINT =
  "No PostgreSQL for this suite: set TEST_POSTGRES_URL=postgres://user@host:port/db (a server where the test may create " +
  "and drop a database), or install PostgreSQL's server programs (apt-get install postgresql) so that it starts its own.";

/** Whether a PostgreSQL can be had here; decided before the suite is collected, so it can be skipped loudly. */
export function postgresAvailable(): boolean {
  return Boolean(process.env.TEST_POSTGRES_URL) || serverPrograms() !== null;
}

export async function startTestPostgres(): Promise<TestPostgres | null> {
  const given = process.env.TEST_POSTGRES_URL;
  if (given) return freshDatabase(given);
  const bin = serverPrograms();
  if (!bin) return null;
  return throwawayCluster(bin);
}

async function freshDatabase(serverUrl: string): Promise<TestPostgres> {
  const name = `invoice_console_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    stop: async () => {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      // The suite's pools may still be closing their connections: forcing them off then would reach their clients
      // as an error nobody listens for any more. Their going is waited for (a few seconds at most) first.
      for (let i = 0; i < 50; i++) {
        const { rows } = await client.query<{ n: number }>("select count(*)::int as n from pg_stat_activity where datname = $1", [name]);
        if (rows[0].n === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

function serverPrograms(): string | null {
  const base = "/usr/lib/postgresql";
  if (!existsSync(base)) return null;
  const versions = readdirSync(base)
    .filter((v) => existsSync(path.join(base, v, "bin", "pg_ctl")))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? path.join(base, versions[0], "bin") : null;
}

/** initdb refuses to run as root: as root, the cluster belongs to the postgres user (as CI's does). */
async function throwawayCluster(bin: string): Promise<TestPostgres> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "invoice-console-pg-"));
  const asRoot = process.getuid?.() === 0;
  const run = (program: string, args: string[]) =>
    asRoot
      ? execFileSync("runuser", ["-u", "postgres", "--", path.join(bin, program), ...args], { stdio: "pipe" })
      : execFileSync(path.join(bin, program), args, { stdio: "pipe" });
  if (asRoot) execFileSync("chown", ["postgres", dir]);
  const data = path.join(dir, "data");
  const port = await freePort();
  run("initdb", ["-D", data, "--auth=trust", "-U", "postgres", "--no-locale", "--encoding=UTF8"]);
  run("pg_ctl", [
    "-D",
    data,
    "-l",
    path.join(dir, "log"),
    "-w",
    "-t",
    "60",
    "-o",
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
    "start",
  ]);
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  return {
    url,
    stop: async () => {
      try {
        // Smart first: a pool just ended has asked its sessions to close, and they may still be closing; a fast stop
        // would cut them off with "terminating connection due to administrator command", an unhandled error.
        try {
          run("pg_ctl", ["-D", data, "-m", "smart", "-w", "-t", "10", "stop"]);
        } catch {
          run("pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"]);
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
