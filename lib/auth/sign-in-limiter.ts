import "server-only";
import { inArray, lt, sql } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { signInFailures } from "@/lib/db/schema";

/**
 * Sign-in attempts, counted per account and per address in fixed 15-minute windows, in the database so every
 * instance sees the same counts. An attempt is counted before the password is checked, atomically, so many
 * attempts sent at once cannot slip past the limit together; a success takes its attempt back.
 */
export const SIGN_IN_WINDOW_SECONDS = 15 * 60;
export const MAX_FAILURES_PER_ACCOUNT = 5;
export const MAX_FAILURES_PER_ADDRESS = 20;

const accountKey = (email: string) => `account:${email.toLowerCase()}`;
const addressKey = (address: string) => `address:${address}`;

export type Blocked = { scope: "account" | "address"; retryAfterSeconds: number };

const expired = sql`${signInFailures.windowStart} < now() - make_interval(secs => ${SIGN_IN_WINDOW_SECONDS})`;

/** Counts this attempt; answers whether it is one too many for the account or the address. */
export async function reserveSignInAttempt(db: Db, email: string, address: string): Promise<Blocked | null> {
  // Old windows are gone for good: the table holds only the last quarter of an hour.
  await db.delete(signInFailures).where(lt(signInFailures.windowStart, sql`now() - make_interval(secs => ${SIGN_IN_WINDOW_SECONDS})`));
  const rows = await db
    .insert(signInFailures)
    .values([accountKey(email), addressKey(address)].map((key) => ({ key, windowStart: sql`now()`, failures: 1 })))
    .onConflictDoUpdate({
      target: signInFailures.key,
      set: {
        failures: sql`case when ${expired} then 1 else ${signInFailures.failures} + 1 end`,
        windowStart: sql`case when ${expired} then now() else ${signInFailures.windowStart} end`,
      },
    })
    .returning({
      key: signInFailures.key,
      failures: signInFailures.failures,
      remaining: sql<number>`ceil(extract(epoch from ${signInFailures.windowStart} + make_interval(secs => ${SIGN_IN_WINDOW_SECONDS}) - now()))::int`,
    });
  for (const row of rows) {
    const scope = row.key.startsWith("account:") ? "account" : "address";
    const max = scope === "account" ? MAX_FAILURES_PER_ACCOUNT : MAX_FAILURES_PER_ADDRESS;
    if (row.failures > max) return { scope, retryAfterSeconds: Math.max(1, row.remaining) };
  }
  return null;
}

/** A successful sign-in: the account starts afresh, and the address gets its attempt back. */
export async function signInSucceeded(db: Db, email: string, address: string): Promise<void> {
  await db.delete(signInFailures).where(inArray(signInFailures.key, [accountKey(email)]));
  await db
    .update(signInFailures)
    .set({ failures: sql`greatest(${signInFailures.failures} - 1, 0)` })
    .where(inArray(signInFailures.key, [addressKey(address)]));
}
