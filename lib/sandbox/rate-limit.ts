import "server-only";
import { sql } from "drizzle-orm";
import { Problem } from "@/lib/contract/problem";
import type { Db } from "@/lib/platform/db";

const WINDOW_SECONDS = 60;

export type RateLimitVerdict = {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the current window ends and the count starts again. */
  resetSeconds: number;
  /** The IETF draft's headers (draft-ietf-httpapi-ratelimit-headers), plus Retry-After when refused. */
  headers: Record<string, string>;
};

/**
 * Counts one request of `keyId` against `limit` requests a fixed one-minute UTC window. The counter is one row
 * per key and window, raised by a single atomic upsert, so concurrent requests on any number of instances
 * sharing the database are counted exactly once each and the limit holds across them all.
 */
export async function consumeRateLimit(db: Db, keyId: string, limit: number, now: Date = new Date()): Promise<RateLimitVerdict> {
  const windowStartMs = Math.floor(now.getTime() / (WINDOW_SECONDS * 1000)) * WINDOW_SECONDS * 1000;
  const windowStart = new Date(windowStartMs).toISOString();
  const result = await db.execute<{ count: number }>(sql`
    insert into sandbox.rate_limit_counters as c (key_id, window_start, count)
    values (${keyId}::uuid, ${windowStart}::timestamptz, 1)
    on conflict (key_id, window_start) do update set count = c.count + 1
    returning c.count`);
  const count = Number(rowsOf<{ count: number }>(result)[0]?.count ?? 1);
  if (count === 1) {
    // The first request of a window clears this key's earlier windows: the table stays one row per key.
    await db.execute(
      sql`delete from sandbox.rate_limit_counters where key_id = ${keyId}::uuid and window_start < ${windowStart}::timestamptz`,
    );
  }
  const resetSeconds = Math.max(1, Math.ceil((windowStartMs + WINDOW_SECONDS * 1000 - now.getTime()) / 1000));
  const allowed = count <= limit;
  const remaining = Math.max(0, limit - count);
  const headers: Record<string, string> = {
    "ratelimit-policy": `"default";q=${limit};w=${WINDOW_SECONDS}`,
    ratelimit: `"default";r=${remaining};t=${resetSeconds}`,
  };
  if (!allowed) headers["retry-after"] = String(resetSeconds);
  return { allowed, limit, remaining, resetSeconds, headers };
}

/** The 429 problem for a refused request, carrying the limit's headers and Retry-After. */
export function rateLimited(verdict: RateLimitVerdict): Problem {
  return new Problem({
    status: 429,
    code: "rate_limited",
    title: "Too many requests",
    detail: `This key may call GET /rates ${verdict.limit} times a minute. Try again in ${verdict.resetSeconds} s.`,
    headers: verdict.headers,
  });
}

// node-postgres answers { rows }, PGlite answers { rows } too, but drizzle's typing differs per driver.
function rowsOf<T>(result: unknown): T[] {
  return ((result as { rows?: T[] }).rows ?? (result as T[])) as T[];
}
