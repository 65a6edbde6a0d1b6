import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NO_POSTGRES_HINT, postgresAvailable, startTestPostgres, type TestPostgres } from "@/test/postgres";
import { type Db, openDatabase } from "./client";

/**
 * DATABASE_STATEMENT_TIMEOUT_MS and DATABASE_POOL_MAX on a real PostgreSQL (TEST_POSTGRES_URL, or a throwaway
 * cluster): a statement running past the timeout is cancelled by the server; the migrations ran without it.
 */
const available = postgresAvailable();
if (!available) console.warn(`lib/platform/db/statement-timeout.test.ts skipped. ${NO_POSTGRES_HINT}`);

const rows = async (result: Promise<unknown>) => ((await result) as { rows: Record<string, unknown>[] }).rows;

describe.skipIf(!available)("PostgreSQL settings", () => {
  let postgres: TestPostgres | null = null;
  let opened: { db: Db; close: () => Promise<void> };
  beforeAll(async () => {
    postgres = await startTestPostgres();
    if (!postgres) throw new Error(NO_POSTGRES_HINT);
    opened = await openDatabase(postgres.url, { poolMax: 3, statementTimeoutMs: 300 });
  }, 120_000);
  afterAll(async () => {
    await opened?.close();
    await postgres?.stop();
  }, 60_000);

  it("cancels a statement that runs past the timeout, and the pool keeps serving", async () => {
    await expect(opened.db.execute(sql`select pg_sleep(3)`)).rejects.toMatchObject({
      cause: expect.objectContaining({ code: "57014" }), // query_canceled: canceling statement due to statement timeout
    });
    // Every connection, the one that migrated included (its own `set statement_timeout = 0` was reset).
    const shown = await Promise.all(Array.from({ length: 3 }, () => rows(opened.db.execute(sql`show statement_timeout`))));
    expect(shown.map((r) => r[0].statement_timeout)).toEqual(["300ms", "300ms", "300ms"]);
    // The migrations ran (without the timeout): the tables are there.
    expect(await rows(opened.db.execute(sql`select to_regclass('console.audit_log')::text as t`))).toEqual([{ t: "console.audit_log" }]);
  });

  it("holds at most DATABASE_POOL_MAX connections", async () => {
    const pool = (opened.db as unknown as { $client: { options: { max: number }; totalCount: number } }).$client;
    expect(pool.options.max).toBe(3);
    await Promise.all(Array.from({ length: 8 }, () => opened.db.execute(sql`select pg_sleep(0.05)`)));
    expect(pool.totalCount).toBeLessThanOrEqual(3);
  });
});
