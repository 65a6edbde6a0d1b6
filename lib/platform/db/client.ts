import "server-only";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { env } from "@/lib/platform/env";
import { postgresConnection } from "./postgres-connection";

/**
 * Drizzle over either driver: PGlite (embedded, the default) or node-postgres (DATABASE_URL). Without a schema: each
 * service imports its own tables (lib/console/schema.ts, lib/sandbox/schema.ts) into its queries, and none uses
 * drizzle's relational `db.query` API, the one thing a schema given to drizzle() would add.
 */
export type Db = PgDatabase<PgQueryResultHKT>;

const MIGRATIONS = path.join(process.cwd(), "drizzle");
// Any fixed number: held while migrating so that several instances on one PostgreSQL take turns.
const MIGRATION_LOCK = 7_340_101;

/**
 * Opens a database and brings its schema up to date. `target` is a PostgreSQL URL, a PGlite data folder,
 * or `memory://` for a throwaway PGlite.
 */
export type PostgresOptions = {
  /** Connections in the pool (DATABASE_POOL_MAX). */
  poolMax?: number;
  /** Milliseconds one statement may run before the server cancels it; 0 or absent: no limit (DATABASE_STATEMENT_TIMEOUT_MS). */
  statementTimeoutMs?: number;
};

export async function openDatabase(
  target: string,
  { poolMax = 10, statementTimeoutMs = 0 }: PostgresOptions = {},
): Promise<{ db: Db; close: () => Promise<void> }> {
  if (/^postgres(ql)?:/.test(target)) {
    const { Pool } = await import("pg");
    const { drizzle } = await import("drizzle-orm/node-postgres");
    const { migrate } = await import("drizzle-orm/node-postgres/migrator");
    const pool = new Pool({
      // TLS from the URL's sslmode, read as libpq does (./postgres-connection.ts).
      ...postgresConnection(target),
      max: poolMax,
      // Sent as the session's statement_timeout when each connection opens: a runaway query is cancelled by the
      // server, its connection comes back to the pool.
      ...(statementTimeoutMs > 0 ? { statement_timeout: statementTimeoutMs } : {}),
    });
    const client = await pool.connect();
    try {
      // Migrations (and the vacuum after them) may take longer than any request's query should.
      await client.query("set statement_timeout = 0");
      await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK]);
      const query = async (text: string) => (await client.query(text)).rows;
      await migratedAndTidied(query, () => migrate(drizzle({ client }), { migrationsFolder: MIGRATIONS }));
    } finally {
      await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK]).catch(() => {});
      // Back to the connection's own setting (the pool's statement_timeout) before others use it.
      await client.query("reset statement_timeout").catch(() => {});
      client.release();
    }
    return { db: drizzle({ client: pool }) as unknown as Db, close: () => pool.end() };
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  const folder = target === "memory://" ? undefined : path.resolve(target);
  const unlock = folder ? lockFolder(folder) : () => {};
  try {
    const client = await PGlite.create(folder, !folder && memoryTemplate ? { loadDataDir: memoryTemplate } : undefined);
    const db = drizzle({ client });
    await migratedAndTidied(
      async (text) => (await client.query(text)).rows,
      () => migrate(db, { migrationsFolder: MIGRATIONS }),
    );
    return { db: db as unknown as Db, close: () => client.close().finally(unlock) };
  } catch (error) {
    unlock();
    throw error;
  }
}

let memoryTemplate: Blob | undefined;

/**
 * A migrated database every later `memory://` one starts from, a copy of it (PGlite's dumpDataDir): the test suites
 * open one in each file, and copying beats migrating from nothing (test/pglite-template.ts). Migrations still run,
 * finding nothing to do unless the template is behind.
 */
export function useMemoryTemplate(template: Blob): void {
  memoryTemplate = template;
}

/** Marks the invoices' and their rollups' pages visible, so the list's walks stay in the indexes (after a seed, a migration). */
export const VACUUM_INVOICE_LISTS =
  "vacuum (analyze) sandbox.invoices, sandbox.invoice_counts, sandbox.invoice_sort_buckets, sandbox.invoice_day_buckets";

/**
 * Runs the migrations; when any ran, vacuums and analyzes the sandbox's invoices and their rollups. A migration
 * may rewrite the table (a generated column) or fill a rollup, and until a vacuum marks the pages visible
 * again, the list's index-only walks read the table too (PGlite never vacuums on its own).
 */
async function migratedAndTidied(query: (text: string) => Promise<unknown[]>, migrate: () => Promise<void>): Promise<void> {
  const applied = async () => {
    const [{ table }] = (await query("select to_regclass('drizzle.__drizzle_migrations')::text as table")) as { table: string | null }[];
    return table ? Number(((await query(`select count(*)::int as n from ${table}`)) as { n: number }[])[0].n) : 0;
  };
  const before = await applied();
  await migrate();
  if ((await applied()) !== before) {
    await query(VACUUM_INVOICE_LISTS);
    // A migration that rewrote the audit log leaves it with no statistics, and the chain's insert trigger would
    // then plan its "last entry" lookup as a scan of the whole log; and with no visibility map, so the activity
    // view's counts from its indexes alone would read every entry (PGlite never vacuums on its own).
    await query("vacuum (analyze) console.audit_log, console.audit_texts");
  }
}

/**
 * PGlite is PostgreSQL inside this process: a second process opening the same folder would corrupt it. A lock
 * file with our pid turns that into a clear error; a lock left by a process that died is taken over.
 */
function lockFolder(folder: string): () => void {
  mkdirSync(folder, { recursive: true });
  const lock = path.join(folder, "invoice-console.lock");
  const holder = existsSync(lock) ? Number(readFileSync(lock, "utf8")) : 0;
  if (holder && holder !== process.pid && isAlive(holder)) {
    throw new Error(
      `The database folder ${folder} is in use by process ${holder} (a running console?). Stop it first, ` +
        "or set DATABASE_URL to a PostgreSQL server, which many processes can share.",
    );
  }
  writeFileSync(lock, String(process.pid));
  const unlock = () => rmSync(lock, { force: true });
  process.once("exit", unlock);
  return unlock;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

type Holder = { database?: Promise<{ db: Db; close: () => Promise<void> }> };
// On globalThis, not in module scope: Next.js may load this module in more than one bundle (instrumentation,
// route handlers, server components), and PGlite allows only one open instance per data folder.
const holder = globalThis as typeof globalThis & { __invoiceConsoleDb?: Holder };

/** The app's database, opened and migrated once per process. */
export function getDatabase(): Promise<Db> {
  const h = (holder.__invoiceConsoleDb ??= {});
  if (!h.database) {
    const { databaseUrl, dataDir, database } = env();
    h.database = openDatabase(databaseUrl ?? dataDir, database);
    h.database.catch(() => (h.database = undefined));
  }
  return h.database.then((opened) => opened.db);
}

/** For command-line scripts: let go of the database so the process can end (and PGlite's folder is free). */
export async function closeDatabase(): Promise<void> {
  const h = holder.__invoiceConsoleDb;
  if (!h?.database) return;
  const opened = await h.database;
  h.database = undefined;
  await opened.close();
}
