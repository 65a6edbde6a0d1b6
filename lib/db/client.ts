import "server-only";
import path from "node:path";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { env } from "@/lib/env";
import * as schema from "./schema";

/** Drizzle over either driver: PGlite (embedded, the default) or node-postgres (DATABASE_URL). */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

const MIGRATIONS = path.join(process.cwd(), "drizzle");
// Any fixed number: held while migrating so that several instances on one PostgreSQL take turns.
const MIGRATION_LOCK = 7_340_101;

/**
 * Opens a database and brings its schema up to date. `target` is a PostgreSQL URL, a PGlite data folder,
 * or `memory://` for a throwaway PGlite.
 */
export async function openDatabase(target: string): Promise<{ db: Db; close: () => Promise<void> }> {
  if (/^postgres(ql)?:/.test(target)) {
    const { Pool } = await import("pg");
    const { drizzle } = await import("drizzle-orm/node-postgres");
    const { migrate } = await import("drizzle-orm/node-postgres/migrator");
    const pool = new Pool({ connectionString: target, max: 10 });
    const client = await pool.connect();
    try {
      await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK]);
      await migrate(drizzle({ client, schema }), { migrationsFolder: MIGRATIONS });
    } finally {
      await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK]).catch(() => {});
      client.release();
    }
    return { db: drizzle({ client: pool, schema }) as unknown as Db, close: () => pool.end() };
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  const client = await PGlite.create(target === "memory://" ? undefined : path.resolve(target));
  const db = drizzle({ client, schema });
  await migrate(db, { migrationsFolder: MIGRATIONS });
  return { db: db as unknown as Db, close: () => client.close() };
}

type Holder = { database?: Promise<Db> };
// On globalThis, not in module scope: Next.js may load this module in more than one bundle (instrumentation,
// route handlers, server components), and PGlite allows only one open instance per data folder.
const holder = globalThis as typeof globalThis & { __invoiceConsoleDb?: Holder };

/** The app's database, opened and migrated once per process. */
export function getDatabase(): Promise<Db> {
  const h = (holder.__invoiceConsoleDb ??= {});
  if (!h.database) {
    const { databaseUrl, dataDir } = env();
    h.database = openDatabase(databaseUrl ?? dataDir).then((opened) => opened.db);
    h.database.catch(() => (h.database = undefined));
  }
  return h.database;
}
