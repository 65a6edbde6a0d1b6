import "server-only";
import { eq, sql } from "drizzle-orm";
import { passkeys, twoFactors, users } from "@/lib/console/schema";
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
