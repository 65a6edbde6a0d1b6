import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { describeOnPostgres } from "@/test/use-postgres-database";

/**
 * DATABASE_STATEMENT_TIMEOUT_MS and DATABASE_POOL_MAX on a real PostgreSQL (TEST_POSTGRES_URL, or a throwaway
 * cluster): a statement running past the timeout is cancelled by the server; the migrations ran without it.
 */
const rows = async (result: Promise<unknown>) => ((await result) as { rows: Record<string, unknown>[] }).rows;

describeOnPostgres(
  "PostgreSQL settings",
  (database) => {
    it("cancels a statement that runs past the timeout, and the pool keeps serving", async () => {
      await expect(database.db().execute(sql`select pg_sleep(3)`)).rejects.toMatchObject({
        cause: expect.objectContaining({ code: "57014" }), // query_canceled: canceling statement due to statement timeout
      });
      // Every connection, the one that migrated included (its own `set statement_timeout = 0` was reset).
      const shown = await Promise.all(Array.from({ length: 3 }, () => rows(database.db().execute(sql`show statement_timeout`))));
      expect(shown.map((r) => r[0].statement_timeout)).toEqual(["300ms", "300ms", "300ms"]);
      // The migrations ran (without the timeout): the tables are there.
      expect(await rows(database.db().execute(sql`select to_regclass('console.audit_log')::text as t`))).toEqual([
        { t: "console.audit_log" },
      ]);
    });

    it("holds at most DATABASE_POOL_MAX connections", async () => {
      const pool = (database.db() as unknown as { $client: { options: { max: number }; totalCount: number } }).$client;
      expect(pool.options.max).toBe(3);
      await Promise.all(Array.from({ length: 8 }, () => database.db().execute(sql`select pg_sleep(0.05)`)));
      expect(pool.totalCount).toBeLessThanOrEqual(3);
    });
  },
  { poolMax: 3, statementTimeoutMs: 300 },
);
