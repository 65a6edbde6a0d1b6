import "server-only";
import { and, eq } from "drizzle-orm";
import { recordAudit } from "@/lib/console/audit";
import { accounts } from "@/lib/console/schema";
import { Problem } from "@/lib/contract/problem";
import type { Db } from "@/lib/platform/db";
import { knownDevice } from "./known-device";
import { getAuth } from "./server";
import type { SessionUser } from "./session";
import { blockedText } from "./sign-in";
import { reserveSignInAttempt, signInSucceeded } from "./sign-in-limiter";

/** What the password is asked for again: kept with a wrong guess in the activity log. */
export type PasswordCheckPurpose = "password_change" | "passkey" | "passkey_removal" | "authenticator_app";

type Context = { headers: Headers; address: string };

/**
 * A signed-in person proves who they are again (their password, or a code from their authenticator app) before
 * changing how they sign in. A session left open must not be a way to guess either: each attempt counts toward the
 * sign-in limits (./sign-in-limiter.ts) before it is checked, and a blocked one answers 429 with Retry-After.
 * Answers what to call once the proof was right (the count starts afresh, as after a sign-in).
 */
export async function countedProof(db: Db, email: string, context: Context): Promise<() => Promise<void>> {
  const device = await knownDevice(context.headers, email);
  const blocked = await reserveSignInAttempt(db, email, context.address, device);
  if (blocked)
    throw Problem.of("too_many_requests", { detail: blockedText(blocked), headers: { "retry-after": String(blocked.retryAfterSeconds) } });
  return () => signInSucceeded(db, email, context.address, device);
}

/** The person's password, given again (a countedProof); a wrong one is recorded. Answers whether it was right. */
export async function verifyCurrentPassword(
  db: Db,
  user: Pick<SessionUser, "id" | "email">,
  password: string,
  context: Context & { purpose: PasswordCheckPurpose },
): Promise<boolean> {
  const succeeded = await countedProof(db, user.email, context);
  const [account] = await db
    .select({ hash: accounts.password })
    .from(accounts)
    .where(and(eq(accounts.userId, user.id), eq(accounts.providerId, "credential")));
  const auth = await (await getAuth()).$context;
  if (!account?.hash || !(await auth.password.verify({ hash: account.hash, password }))) {
    // The attempt stays counted.
    await recordAudit(db, {
      actor: user,
      action: "user.password_change_failed",
      target: `user:${user.email}`,
      detail: { address: context.address, for: context.purpose },
    });
    return false;
  }
  await succeeded();
  return true;
}
