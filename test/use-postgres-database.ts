import { afterAll, beforeAll, describe } from "vitest";
import { type Db, openDatabase, type PostgresOptions } from "@/lib/platform/db";
import { NO_POSTGRES_HINT, postgresAvailable, startTestPostgres, type TestPostgres } from "./postgres";

/*
 * A suite on a real PostgreSQL of its own (./postgres.ts: TEST_POSTGRES_URL, else a throwaway cluster), skipped
 * loudly where there is none. Kept apart from ./postgres.ts, which the benchmarks import without Vitest.
 */

export type SuiteDatabase = {
  /** The database's URL (for servers started on it, or a client of the test's own). */
  readonly url: string;
  /** The `n`th of the opened instances: each its own pool on the server, as separate consoles. */
  db: (n?: number) => Db;
};

/**
 * `describe(name, body)` on PostgreSQL: before the suite, a fresh database opened (migrated) by `instances`
 * pools one after another (the first migrates, the others find it done); after it, closed and dropped.
 */
export function describeOnPostgres(
  name: string,
  body: (database: SuiteDatabase) => void,
  { instances = 1, ...options }: PostgresOptions & { instances?: number } = {},
): void {
  const available = postgresAvailable();
  if (!available) console.warn(`"${name}" is skipped. ${NO_POSTGRES_HINT}`);
  describe.skipIf(!available)(name, () => {
    let postgres: TestPostgres | null = null;
    const opened: { db: Db; close: () => Promise<void> }[] = [];
    beforeAll(async () => {
      postgres = await startTestPostgres();
      if (!postgres) throw new Error(NO_POSTGRES_HINT);
      for (let i = 0; i < instances; i++) opened.push(await openDatabase(postgres.url, options));
    }, 240_000);
    afterAll(async () => {
      for (const instance of opened) await instance.close();
      await postgres?.stop();
    }, 60_000);
    body({
      get url() {
        if (!postgres) throw new Error("The suite's database is made in beforeAll: read it inside a test or hook.");
        return postgres.url;
      },
      db: (n = 0) => opened[n].db,
    });
  });
}
