import "server-only";
import { eq, sql } from "drizzle-orm";
import { recordAudit } from "@/lib/console/audit";
import { passkeys, sessions, twoFactors, users } from "@/lib/console/schema";
import type { Db } from "@/lib/platform/db";

// A person's second factors: an authenticator app (./two-factor.ts) and passkeys (./passkeys.ts).

/**
 * better-auth's `twoFactorEnabled`, which makes a right password ask for a second step and satisfies
 * TWO_FACTOR_REQUIRED_ROLES: true while the person has a confirmed authenticator app or any passkey.
 */
export async function syncSecondFactorFlag(tx: Db, userId: string): Promise<void> {
  await tx
    .update(users)
    .set({
      twoFactorEnabled: sql`exists (select 1 from ${twoFactors} where ${twoFactors.userId} = ${userId} and ${twoFactors.verified})
        or exists (select 1 from ${passkeys} where ${passkeys.userId} = ${userId})`,
      updatedAt: sql`now()`,
    })
    .where(eq(users.id, userId));
}

/** Which second factors a person has, so the sign-in's second step offers those: a code field, a passkey button, or both. */
export type SecondFactors = { app: boolean; passkey: boolean };

export async function secondFactorsOf(db: Db, userId: string): Promise<SecondFactors> {
  const [row] = await db
    .select({
      app: sql<boolean>`exists (select 1 from ${twoFactors} where ${twoFactors.userId} = ${userId} and ${twoFactors.verified})`,
      passkey: sql<boolean>`exists (select 1 from ${passkeys} where ${passkeys.userId} = ${userId})`,
    })
    .from(sql`(select 1) as one`);
  return { app: Boolean(row?.app), passkey: Boolean(row?.passkey) };
}

/**
 * An admin takes an account back from whoever else may hold it, as they issue its reset link: every passkey and
 * the authenticator app go (each a whole sign-in or the second step an intruder may have added), and every
 * session ends. The person signs in again with the password they choose from the link, and sets up a second
 * factor anew. One transaction; each removal is recorded in the admin's name.
 */
export async function takeAccountBack(
  db: Db,
  person: { id: string; email: string },
  actor: { id: string; email: string },
  address: string,
): Promise<{ passkeys: number; app: boolean; sessions: number }> {
  return db.transaction(async (tx) => {
    const audit = tx as unknown as Db;
    const target = `user:${person.email}`;
    const why = "account taken back with a password reset";
    const keys = await tx.delete(passkeys).where(eq(passkeys.userId, person.id)).returning({ name: passkeys.name });
    const apps = await tx.delete(twoFactors).where(eq(twoFactors.userId, person.id)).returning({ id: twoFactors.id });
    await syncSecondFactorFlag(audit, person.id);
    const ended = await tx.delete(sessions).where(eq(sessions.userId, person.id)).returning({ id: sessions.id });
    for (const key of keys) {
      await recordAudit(audit, {
        actor,
        action: "two_factor.removed",
        target,
        detail: { method: "passkey", name: key.name, why, address },
      });
    }
    if (apps.length > 0)
      await recordAudit(audit, { actor, action: "two_factor.removed", target, detail: { method: "totp", why, address } });
    if (ended.length > 0) {
      await recordAudit(audit, { actor, action: "user.sessions_ended", target, detail: { count: ended.length, why, address } });
    }
    return { passkeys: keys.length, app: apps.length > 0, sessions: ended.length };
  });
}
