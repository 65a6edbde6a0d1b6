import "server-only";
import { and, eq, like, lt, or, sql } from "drizzle-orm";
import { signInFailures } from "@/lib/console/schema";
import type { Db } from "@/lib/platform/db";

/**
 * Sign-in attempts, counted in the database so every instance sees the same counts, atomically and before the
 * password is checked, so attempts sent all at once cannot slip past together.
 *
 * - Per account and address: after 5 failures each further one from that address waits longer (30 s, 1 min,
 *   2 min … up to 15 min); an attempt made during a wait is refused unchecked and counts nowhere. Nobody can
 *   lock an account's owner out: from any other address the owner signs in as usual.
 * - Per address: 20 failures in 15 minutes, across accounts, block that address until the window ends. This
 *   is what stops one client guessing; the address is the socket's, or what TRUSTED_PROXIES vouch for.
 * - A known device of the account (./known-device.ts) is not held to its address's limit, so guesses from a
 *   shared network lock none of its people out; it counts as an address of its own for that account.
 */
export const SIGN_IN_WINDOW_SECONDS = 15 * 60;
export const FREE_FAILURES_PER_ACCOUNT = 5;
export const MAX_FAILURES_PER_ADDRESS = 20;
const FIRST_DELAY_SECONDS = 30;
const MAX_DELAY_SECONDS = 15 * 60;
/** A quiet account-and-address pair starts afresh after an hour. */
const PAIR_MEMORY_SECONDS = 60 * 60;

const pairKey = (email: string, address: string) => `pair:${email.toLowerCase()}|${address}`;
const addressKey = (address: string) => `address:${address}`;

export type Blocked = { scope: "account" | "address"; retryAfterSeconds: number };

/** The wait after `failures` failures of one account from one address, in seconds (0 while under the limit). */
function delayAfter(failures: ReturnType<typeof sql>) {
  return sql`case when ${failures} < ${FREE_FAILURES_PER_ACCOUNT} then 0
    else least(${FIRST_DELAY_SECONDS} * power(2, least(${failures} - ${FREE_FAILURES_PER_ACCOUNT}, 10)), ${MAX_DELAY_SECONDS}) end`;
}

/**
 * Counts this attempt; answers whether it must wait (this account from this address) or is refused (this address).
 * From a known `device` of the account, that device stands in for the address.
 */
export async function reserveSignInAttempt(db: Db, email: string, address: string, device: string | null = null): Promise<Blocked | null> {
  await db
    .delete(signInFailures)
    .where(
      or(
        and(
          like(signInFailures.key, "address:%"),
          lt(signInFailures.windowStart, sql`now() - make_interval(secs => ${SIGN_IN_WINDOW_SECONDS})`),
        ),
        and(like(signInFailures.key, "pair:%"), lt(signInFailures.windowStart, sql`now() - make_interval(secs => ${PAIR_MEMORY_SECONDS})`)),
      ),
    );

  if (device) return reservePairAttempt(db, pairKey(email, `device:${device}`));
  // A pair already waiting (a person retrying early, most often) is refused before its address is touched.
  const early = await pairWaiting(db, pairKey(email, address));
  if (early) return early;
  // The address: fixed 15-minute windows.
  const addressExpired = sql`${signInFailures.windowStart} < now() - make_interval(secs => ${SIGN_IN_WINDOW_SECONDS})`;
  const [byAddress] = await db
    .insert(signInFailures)
    .values({ key: addressKey(address), windowStart: sql`now()`, failures: 1 })
    .onConflictDoUpdate({
      target: signInFailures.key,
      set: {
        failures: sql`case when ${addressExpired} then 1 else ${signInFailures.failures} + 1 end`,
        windowStart: sql`case when ${addressExpired} then now() else ${signInFailures.windowStart} end`,
      },
    })
    .returning({
      failures: signInFailures.failures,
      remaining: sql<number>`ceil(extract(epoch from ${signInFailures.windowStart} + make_interval(secs => ${SIGN_IN_WINDOW_SECONDS}) - now()))::int`,
    });
  if (byAddress.failures > MAX_FAILURES_PER_ADDRESS) return { scope: "address", retryAfterSeconds: Math.max(1, byAddress.remaining) };
  const waiting = await reservePairAttempt(db, pairKey(email, address));
  // Refused unchecked: not an attempt of this address either.
  if (waiting) await returnAddressAttempt(db, address);
  return waiting;
}

/** What the pair's row says now, read without a lock: a wait it is already in, or null. */
async function pairWaiting(db: Db, key: string): Promise<Blocked | null> {
  const [pair] = await db.select(pairState).from(signInFailures).where(eq(signInFailures.key, key));
  return pair ? waitOf(pair) : null;
}

async function returnAddressAttempt(db: Db, address: string): Promise<void> {
  await db
    .update(signInFailures)
    .set({ failures: sql`greatest(${signInFailures.failures} - 1, 0)` })
    .where(eq(signInFailures.key, addressKey(address)));
}

/** A pair's count, and how long its wait has left by the clock (negative once over). */
const pairState = {
  failures: signInFailures.failures,
  waitLeft: sql<number>`extract(epoch from ${signInFailures.windowStart} + make_interval(secs => ${delayAfter(sql`${signInFailures.failures}`)}) - clock_timestamp())::float8`,
};

function waitOf(pair: { failures: number; waitLeft: number }): Blocked | null {
  return pair.failures >= FREE_FAILURES_PER_ACCOUNT && pair.waitLeft > 0
    ? { scope: "account", retryAfterSeconds: Math.max(1, Math.ceil(pair.waitLeft)) }
    : null;
}

async function reservePairAttempt(db: Db, key: string): Promise<Blocked | null> {
  // The account from this address: `windowStart` is the last attempt that was let through. An attempt made
  // while the pair must wait is refused unchecked and not counted: retrying early, a person who knows their
  // password does not push their own wait further, and a guesser learns nothing. Attempts sent together
  // are decided one after another on the locked row, each from the count the one before left, and timed by
  // the clock when the row is held: `now()` is when a transaction began, which need not follow the lock's order.
  return db.transaction(async (tx) => {
    // Made or taken, and locked, in one statement: a row deleted meanwhile (a success, a reset) is made anew.
    const [pair] = await tx
      .insert(signInFailures)
      .values({ key, windowStart: sql`clock_timestamp()`, failures: 0 })
      .onConflictDoUpdate({ target: signInFailures.key, set: { key: sql`excluded.key` } })
      .returning(pairState);
    const waiting = waitOf(pair);
    if (waiting) return waiting;
    await tx
      .update(signInFailures)
      .set({ failures: sql`${signInFailures.failures} + 1`, windowStart: sql`clock_timestamp()` })
      .where(eq(signInFailures.key, key));
    return null;
  });
}

/**
 * A successful sign-in: the account starts afresh from this address (or device); from an address, the address
 * gets back the attempt this sign-in counted against it (a known device's attempts never counted, nor does a
 * passkey's, `counted: false`: given back, each passkey sign-in would erase one of the address's failures).
 */
export async function signInSucceeded(
  db: Db,
  email: string,
  address: string,
  device: string | null = null,
  { counted = true }: { counted?: boolean } = {},
): Promise<void> {
  await db.delete(signInFailures).where(eq(signInFailures.key, pairKey(email, device ? `device:${device}` : address)));
  if (device || !counted) return;
  await returnAddressAttempt(db, address);
}

/** A person's waits from every address and device are over (their password was set from a link). */
export async function forgetAccountWaits(db: Db, email: string): Promise<void> {
  await db.delete(signInFailures).where(sql`starts_with(${signInFailures.key}, ${`pair:${email.toLowerCase()}|`})`);
}
