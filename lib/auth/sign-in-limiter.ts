import "server-only";
import { inArray, sql } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { signInFailures } from "@/lib/db/schema";

/**
 * Failed sign-ins, counted per account and per address in fixed 15-minute windows, in the database so every
 * instance sees the same counts. Success clears the account's count.
 */
export const SIGN_IN_WINDOW_SECONDS = 15 * 60;
export const MAX_FAILURES_PER_ACCOUNT = 5;
export const MAX_FAILURES_PER_ADDRESS = 20;

const accountKey = (email: string) => `account:${email.toLowerCase()}`;
const addressKey = (address: string) => `address:${address}`;

export type Blocked = { scope: "account" | "address"; retryAfterSeconds: number };

export async function signInBlocked(db: Db, email: string, address: string): Promise<Blocked | null> {
  const rows = await db
    .select({
      key: signInFailures.key,
      failures: signInFailures.failures,
      remaining: sql<number>`ceil(extract(epoch from ${signInFailures.windowStart} + make_interval(secs => ${SIGN_IN_WINDOW_SECONDS}) - now()))::int`,
    })
    .from(signInFailures)
    .where(inArray(signInFailures.key, [accountKey(email), addressKey(address)]));
  for (const row of rows) {
    const max = row.key.startsWith("account:") ? MAX_FAILURES_PER_ACCOUNT : MAX_FAILURES_PER_ADDRESS;
    if (row.remaining > 0 && row.failures >= max) {
      return { scope: row.key.startsWith("account:") ? "account" : "address", retryAfterSeconds: row.remaining };
    }
  }
  return null;
}

export async function recordSignInFailure(db: Db, email: string, address: string): Promise<void> {
  const expired = sql`${signInFailures.windowStart} < now() - make_interval(secs => ${SIGN_IN_WINDOW_SECONDS})`;
  await db
    .insert(signInFailures)
    .values([accountKey(email), addressKey(address)].map((key) => ({ key, windowStart: sql`now()`, failures: 1 })))
    .onConflictDoUpdate({
      target: signInFailures.key,
      set: {
        failures: sql`case when ${expired} then 1 else ${signInFailures.failures} + 1 end`,
        windowStart: sql`case when ${expired} then now() else ${signInFailures.windowStart} end`,
      },
    });
}

export async function clearSignInFailures(db: Db, email: string): Promise<void> {
  await db.delete(signInFailures).where(inArray(signInFailures.key, [accountKey(email)]));
}
