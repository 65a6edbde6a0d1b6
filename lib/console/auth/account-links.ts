import "server-only";
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { recordAudit } from "@/lib/console/audit";
import { accountLinks, accounts, passkeys, sessions, twoFactors, users } from "@/lib/console/schema";
import { Problem } from "@/lib/contract/problem";
import type { Db } from "@/lib/platform/db";
import { env } from "@/lib/platform/env";
import { passwordRuleBroken } from "./password-rules";
import { syncSecondFactorFlag } from "./second-factors";
import { getAuth } from "./server";
import type { SessionUser } from "./session";
import { forgetAccountWaits } from "./sign-in-limiter";
import { isDemoAccount } from "./users";

/**
 * One-time links that let a person choose their own password, so nobody ever sets or learns another's
 * (ARCHITECTURE.md §4): `invite` for someone just added, `reset` issued by an admin. The token is 32 random bytes
 * in the URL; only its SHA-256 is stored, and a link is spent by the transaction that sets the password.
 */
export type LinkKind = "invite" | "reset";
export const LINK_PATHS: Record<LinkKind, string> = { invite: "/invite", reset: "/reset" };

export type IssuedLink = { kind: LinkKind; url: string; expiresAt: string };
type Actor = Pick<SessionUser, "id" | "email"> | "system";

/** Where a link stands, as its page says it; the person is named only for a link that still works. */
export type LinkState =
  | { state: "ok"; email: string; name: string }
  | { state: "unknown" | "used" | "expired" | "disabled"; email?: undefined; name?: undefined };

const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const hashOf = (token: string) => createHash("sha256").update(token).digest("hex");

/**
 * A new link for `userId`, valid INVITE_TTL_HOURS or RESET_TTL_HOURS. Any earlier link of theirs not yet used
 * stops working: only the newest one an admin handed out opens the account.
 */
export async function issueLink(
  db: Db,
  { kind, userId, actor, address }: { kind: LinkKind; userId: string; actor: Actor; address: string },
): Promise<IssuedLink> {
  const token = randomBytes(32).toString("base64url");
  const hours = kind === "invite" ? env().links.inviteTtlHours : env().links.resetTtlHours;
  const now = new Date();
  const expiresAt = new Date(now.getTime() + hours * 3_600_000);
  await db.transaction(async (tx) => {
    const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId));
    if (!user) throw Problem.of("not_found", { title: "No such user", detail: "This person no longer has an account." });
    if (kind === "reset" && isDemoAccount(user.email)) {
      throw Problem.of("forbidden", {
        title: "The demo accounts keep their password",
        detail: "Everyone signs in to the demo with its published password, so it is not reset. Add a person of your own instead.",
      });
    }
    await tx
      .update(accountLinks)
      .set({ expiresAt: now })
      .where(and(eq(accountLinks.userId, userId), isNull(accountLinks.usedAt), gt(accountLinks.expiresAt, now)));
    await tx.insert(accountLinks).values({
      kind,
      userId,
      tokenHash: hashOf(token),
      expiresAt,
      createdBy: actor === "system" ? "system" : actor.email,
    });
    await recordAudit(tx as unknown as Db, {
      actor,
      action: kind === "invite" ? "user.invited" : "user.reset_issued",
      target: `user:${user.email}`,
      detail: { expires_at: expiresAt.toISOString(), address },
    });
  });
  return { kind, url: `${env().publicUrl}${LINK_PATHS[kind]}/${token}`, expiresAt: expiresAt.toISOString() };
}

/** What the link's page shows. Reading it changes nothing. */
export async function readLink(db: Db, kind: LinkKind, token: string): Promise<LinkState> {
  if (!TOKEN.test(token)) return { state: "unknown" };
  const [row] = await db
    .select({ usedAt: accountLinks.usedAt, expiresAt: accountLinks.expiresAt, email: users.email, name: users.name, banned: users.banned })
    .from(accountLinks)
    .innerJoin(users, eq(users.id, accountLinks.userId))
    .where(and(eq(accountLinks.tokenHash, hashOf(token)), eq(accountLinks.kind, kind)));
  if (!row) return { state: "unknown" };
  if (row.usedAt) return { state: "used" };
  if (row.expiresAt <= new Date()) return { state: "expired" };
  if (row.banned) return { state: "disabled" };
  return { state: "ok", email: row.email, name: row.name };
}

/** The sentence a page or a refused form shows for a link that does not work. */
export function linkGoneSentence(kind: LinkKind, state: Exclude<LinkState["state"], "ok">): string {
  const what = kind === "invite" ? "invitation" : "password reset link";
  const ask = `Ask an admin for a new ${kind === "invite" ? "invitation" : "link"}.`;
  switch (state) {
    case "used":
      return `This ${what} has already been used. It works once. ${ask}`;
    case "expired":
      return `This ${what} has expired. ${ask}`;
    case "disabled":
      return `This ${what} belongs to an account that is disabled. Ask an admin about it.`;
    default:
      return `This ${what} is not valid: it may be mistyped or cut short. Open the link exactly as it was sent, or ask an admin for a new one.`;
  }
}

/**
 * Sets the person's password from a link, once: the link is spent by a conditional UPDATE (still unused, not
 * expired, its person not disabled) in the same transaction that writes the password, so two uses at once set it
 * once and a used link cannot be replayed. A reset also ends every session the person had. Returns who it was.
 */
export async function spendLink(
  db: Db,
  { kind, token, password, address }: { kind: LinkKind; token: string; password: string; address: string },
): Promise<{ id: string; email: string; sessionsEnded: number }> {
  const gone = async () => {
    const { state } = await readLink(db, kind, token);
    return Problem.of("link_gone", { detail: linkGoneSentence(kind, state === "ok" ? "used" : state) });
  };
  if (!TOKEN.test(token)) throw await gone();
  const broken = passwordRuleBroken(password);
  if (broken) throw Problem.of("validation_failed", { errors: [{ pointer: "/password", detail: broken }] });
  // Hashed before the transaction: scrypt is slow on purpose, and the row lock should not wait for it.
  const hash = await (await (await getAuth()).$context).password.hash(password);
  const now = new Date();
  const result = await db.transaction(async (tx) => {
    const [link] = await tx
      .update(accountLinks)
      .set({ usedAt: now })
      .where(
        and(
          eq(accountLinks.tokenHash, hashOf(token)),
          eq(accountLinks.kind, kind),
          isNull(accountLinks.usedAt),
          gt(accountLinks.expiresAt, now),
          sql`exists (select 1 from "console"."users" u where u.id = "account_links"."user_id" and u.banned is not true)`,
        ),
      )
      .returning({ userId: accountLinks.userId });
    if (!link) return null;
    const [user] = await tx.select({ id: users.id, email: users.email }).from(users).where(eq(users.id, link.userId));
    await storePassword(tx as unknown as Db, user.id, hash, now);
    const audit = tx as unknown as Db;
    const target = `user:${user.email}`;
    if (kind === "invite") {
      await recordAudit(audit, { actor: user, action: "user.invitation_accepted", target, detail: { address } });
      return { ...user, sessionsEnded: 0 };
    }
    const ended = await tx.delete(sessions).where(eq(sessions.userId, user.id)).returning({ id: sessions.id });
    await recordAudit(audit, { actor: user, action: "user.password_reset", target, detail: { address } });
    if (ended.length > 0) {
      await recordAudit(audit, {
        actor: user,
        action: "user.sessions_ended",
        target,
        detail: { count: ended.length, why: "password reset", address },
      });
    }
    return { ...user, sessionsEnded: ended.length };
  });
  if (!result) throw await gone();
  // Whoever holds the link proved the address and chose the password: waits earned by guesses are over.
  await forgetAccountWaits(db, result.email);
  return result;
}

/**
 * Sets a person's password hash, as set `now`: a device cookie issued before it is no longer known
 * (./known-device.ts). Their credential account is made if they had none (an invitation).
 */
export async function storePassword(db: Db, userId: string, hash: string, now: Date): Promise<void> {
  const changed = await db
    .update(accounts)
    .set({ password: hash, updatedAt: now })
    .where(and(eq(accounts.userId, userId), eq(accounts.providerId, "credential")))
    .returning({ id: accounts.id });
  if (changed.length === 0) {
    await db
      .insert(accounts)
      .values({ id: randomUUID(), accountId: userId, providerId: "credential", userId, password: hash, updatedAt: now });
  }
}

/**
 * An admin takes an account back from whoever else may hold it, as they issue its reset link: its password stops
 * working (and with it every known device, ./known-device.ts), every passkey and the authenticator app go (each a
 * whole sign-in, or the second step an intruder may have added), and every session ends. The person signs in again
 * with the password they choose from the link, and sets up a second factor anew. One transaction, recorded in the
 * admin's name: one entry for the whole, and one for each factor removed.
 */
export async function takeAccountBack(
  db: Db,
  person: { id: string; email: string },
  actor: { id: string; email: string },
  address: string,
): Promise<{ passkeys: number; app: boolean; sessions: number }> {
  // A password nobody knows, hashed before the transaction (scrypt is slow on purpose).
  const unusable = await (await (await getAuth()).$context).password.hash(randomBytes(32).toString("base64url"));
  return db.transaction(async (tx) => {
    const audit = tx as unknown as Db;
    const target = `user:${person.email}`;
    const why = "account taken back with a password reset";
    await storePassword(audit, person.id, unusable, new Date());
    const keys = await tx.delete(passkeys).where(eq(passkeys.userId, person.id)).returning({ name: passkeys.name });
    const apps = await tx.delete(twoFactors).where(eq(twoFactors.userId, person.id)).returning({ verified: twoFactors.verified });
    await syncSecondFactorFlag(audit, person.id);
    const ended = await tx.delete(sessions).where(eq(sessions.userId, person.id)).returning({ id: sessions.id });
    // An app set up but never confirmed was no factor: removed, not counted.
    const app = apps.some((row) => row.verified);
    for (const key of keys) {
      await recordAudit(audit, {
        actor,
        action: "two_factor.removed",
        target,
        detail: { method: "passkey", name: key.name, why, address },
      });
    }
    if (app) await recordAudit(audit, { actor, action: "two_factor.removed", target, detail: { method: "totp", why, address } });
    const taken = { passkeys: keys.length, app, sessions: ended.length };
    await recordAudit(audit, { actor, action: "user.taken_back", target, detail: { ...taken, password: "retired", address } });
    return taken;
  });
}
