import "server-only";
import { and, eq, isNull, ne } from "drizzle-orm";
import { recordAudit } from "@/lib/console/audit";
import { accountLinks, sessions } from "@/lib/console/schema";
import { Problem } from "@/lib/contract/problem";
import type { Db } from "@/lib/platform/db";
import { storePassword } from "./account-links";
import { rememberDevice } from "./known-device";
import { passwordRuleBroken } from "./password-rules";
import { getAuth } from "./server";
import type { SessionUser } from "./session";
import { verifyCurrentPassword } from "./signed-in-proof";
import { DEMO_PASSWORD, isDemoAccount } from "./users";

/**
 * A signed-in person chooses a new password, proving the current one. Guesses at the current one count toward the
 * same limits as a sign-in's. The change ends their other sessions and retires an unused reset link, as a reset
 * does, and forgets devices known before it but this one. Answers how many sessions ended.
 */
export async function changeOwnPassword(
  db: Db,
  user: Pick<SessionUser, "id" | "email" | "sessionId">,
  input: { current: string; password: string },
  context: { headers: Headers; address: string },
): Promise<{ sessionsEnded: number }> {
  if (isDemoAccount(user.email)) {
    throw Problem.of("forbidden", {
      title: "The demo accounts keep their password",
      detail: `Everyone signs in to the demo with ${DEMO_PASSWORD}, so it is not changed here. A person added on Users chooses a password of their own.`,
    });
  }
  const broken = passwordRuleBroken(input.password);
  if (broken) throw Problem.of("validation_failed", { errors: [{ pointer: "/password", detail: broken }] });
  if (input.password === input.current) {
    throw Problem.of("validation_failed", {
      errors: [{ pointer: "/password", detail: "is the same as the current password you typed; choose a new one" }],
    });
  }
  if (!(await verifyCurrentPassword(db, user, input.current, { ...context, purpose: "password_change" }))) {
    throw Problem.of("validation_failed", { errors: [{ pointer: "/current_password", detail: "is not your current password" }] });
  }
  // Hashed before the transaction: scrypt is slow on purpose.
  const hash = await (await (await getAuth()).$context).password.hash(input.password);
  const sessionsEnded = await db.transaction(async (tx) => {
    await storePassword(tx as unknown as Db, user.id, hash, new Date());
    // A reset link an admin handed out before must not undo this change.
    await tx
      .update(accountLinks)
      .set({ expiresAt: new Date() })
      .where(and(eq(accountLinks.userId, user.id), eq(accountLinks.kind, "reset"), isNull(accountLinks.usedAt)));
    const ended = await tx
      .delete(sessions)
      .where(and(eq(sessions.userId, user.id), ne(sessions.id, user.sessionId)))
      .returning({ id: sessions.id });
    await recordAudit(tx as unknown as Db, {
      actor: user,
      action: "user.password_changed",
      target: `user:${user.email}`,
      detail: { address: context.address, other_sessions_ended: ended.length },
    });
    return ended.length;
  });
  // This browser proved the password: it stays a known device.
  await rememberDevice(user.email);
  return { sessionsEnded };
}
