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
export type PasswordCheckPurpose = "password_change" | "passkey" | "authenticator_app";

/**
 * A signed-in person gives their password again before changing how they sign in. A session left open must not
 * be a way to guess it: each guess counts toward the sign-in limits (./sign-in-limiter.ts) before it is checked,
 * a blocked one answers 429 with Retry-After, and a wrong one is recorded. Answers whether it was right.
 */
export async function verifyCurrentPassword(
  db: Db,
  user: Pick<SessionUser, "id" | "email">,
  password: string,
  context: { headers: Headers; address: string; purpose: PasswordCheckPurpose },
): Promise<boolean> {
  const device = await knownDevice(context.headers, user.email);
  const blocked = await reserveSignInAttempt(db, user.email, context.address, device);
  if (blocked)
    throw Problem.of("too_many_requests", { detail: blockedText(blocked), headers: { "retry-after": String(blocked.retryAfterSeconds) } });

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
  await signInSucceeded(db, user.email, context.address, device);
  return true;
}
