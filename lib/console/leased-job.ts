import "server-only";
import { randomUUID } from "node:crypto";
import { and, eq, isNull, lt, lte, or, type SQL, sql } from "drizzle-orm";
import type { PgColumn, PgTable, PgUpdateSetSource } from "drizzle-orm/pg-core";
import { Problem, problemSentence } from "@/lib/contract/problem";
import type { Db } from "@/lib/platform/db";
import { log } from "@/lib/platform/observability/log";

/** The columns a leased job's state row has (console.rates_cache, console.search_sync). */
export type LeasedTable = PgTable & {
  id: PgColumn;
  /** No run before this instant. */
  nextTryAt: PgColumn;
  /** Held by one instance until this instant (a crashed holder's lease runs out). */
  leaseUntil: PgColumn;
  leaseHolder: PgColumn;
  /** Every upstream call the job has made, over all instances. */
  upstreamCalls: PgColumn;
};

/** The columns a caller may write along with the lease's own. */
export type LeasedUpdate<T extends LeasedTable> = { [K in keyof T["$inferInsert"]]?: T["$inferInsert"][K] | SQL };

export type LeasedJobOptions<T extends LeasedTable> = {
  table: T;
  /** The state row's id: one per job (and per upstream); tests use their own. */
  id: string;
  /** How long one instance may hold the lease before another may take it over. */
  leaseMs: number;
  now: () => Date;
};

/**
 * One job that only one console instance at a time may run (ARCHITECTURE.md §4): a state row in the console's
 * database, taken with one conditional UPDATE when it is due (`next_try_at`) and nobody holds it
 * (`lease_until`/`lease_holder`), written while held, and let go of with the outcome. The rates cache and the
 * search index's sync are two; this is the lease they share, each keeps its own columns.
 */
export function createLeasedJob<T extends LeasedTable>(options: LeasedJobOptions<T>) {
  type Row = T["$inferSelect"];
  const { table, id } = options;
  /** This instance, as the lease knows it. */
  const holder = randomUUID();
  const ours = () => and(eq(table.id, id), eq(table.leaseHolder, holder));
  const set = (values: Record<string, unknown>) => values as PgUpdateSetSource<T>;

  return {
    holder,

    /** The state row; the first instance ever creates it, due at once (the epoch as `next_try_at`). */
    async read(db: Db): Promise<Row> {
      const select = () =>
        db
          .select()
          .from(table as PgTable)
          .where(eq(table.id, id)) as Promise<Row[]>;
      const [row] = await select();
      if (row) return row;
      await db
        .insert(table)
        .values({ id, nextTryAt: new Date(0) } as T["$inferInsert"])
        .onConflictDoNothing();
      const [created] = await select();
      return created;
    },

    /** Takes the lease if the row is due at `at` and nobody holds it: the row as it now is, or null. */
    async take(db: Db, at: Date): Promise<Row | null> {
      const rows = (await db
        .update(table)
        .set(set({ leaseUntil: new Date(at.getTime() + options.leaseMs), leaseHolder: holder }))
        .where(and(eq(table.id, id), lte(table.nextTryAt, at), or(isNull(table.leaseUntil), lt(table.leaseUntil, at))))
        .returning()) as Row[];
      return rows[0] ?? null;
    },

    /**
     * Writes progress while the lease is still ours and holds it for another `leaseMs`, counting `calls` upstream
     * calls; false when it ran out and another instance took over (then stop writing).
     */
    async advance(db: Db, update: LeasedUpdate<T> = {}, calls = 1): Promise<boolean> {
      const rows = await db
        .update(table)
        .set(
          set({
            ...update,
            leaseUntil: new Date(options.now().getTime() + options.leaseMs),
            upstreamCalls: sql`${table.upstreamCalls} + ${calls}`,
          }),
        )
        .where(ours())
        .returning({ id: table.id });
      return rows.length > 0;
    },

    /** Lets go of the lease with the outcome, counting `calls` upstream calls: the row, or null if it was no longer ours. */
    async release(db: Db, update: LeasedUpdate<T> = {}, calls = 0): Promise<Row | null> {
      const rows = (await db
        .update(table)
        .set(
          set({
            ...update,
            leaseUntil: null,
            leaseHolder: null,
            ...(calls ? { upstreamCalls: sql`${table.upstreamCalls} + ${calls}` } : {}),
          }),
        )
        .where(ours())
        .returning()) as Row[];
      return rows[0] ?? null;
    },
  };
}

export type UpstreamFailure = {
  reason: "rate_limited" | "upstream_error";
  /** What a 429 asked to wait (Retry-After, 60 when it named no number of seconds); null for any other failure. */
  retryAfterSeconds: number | null;
  /** The provider's problem as a sentence; null when the failure was not a problem (then it is logged). */
  detail: string | null;
};

/** Why a leased job's upstream call failed, and how long a 429 asked to wait before the next try. */
export function upstreamFailure(error: unknown, logAs: string): UpstreamFailure {
  const problem = error instanceof Problem ? error : null;
  // Anything but a problem is unexpected: logged with its stack, described to people without internals.
  if (!problem) log.error({ err: error }, logAs);
  const limited = problem?.status === 429;
  return {
    reason: limited ? "rate_limited" : "upstream_error",
    retryAfterSeconds: limited ? Number(problem.headers["retry-after"] ?? 60) || 60 : null,
    detail: problem ? problemSentence(problem) : null,
  };
}

/**
 * Renews a lease every `everyMs` while its work goes on, until the returned stop is called: one step of the work (a
 * slow provider, a 429's wait) may outlast the lease, and another instance must not take over work still under way.
 */
export function heartbeat(renew: () => Promise<unknown>, everyMs: number, logAs: string): () => void {
  const timer = setInterval(() => void renew().catch((error: unknown) => log.warn({ err: error }, `${logAs}: lease not renewed`)), everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
