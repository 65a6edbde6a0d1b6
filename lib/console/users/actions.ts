"use server";

import { eq } from "drizzle-orm";
import { revalidatePath } from "next/cache";
import { headers } from "next/headers";
import { z } from "zod";
import { type IssuedLink, issueLink, takeAccountBack } from "@/lib/console/auth/account-links";
import { emailLink, type LinkDelivery } from "@/lib/console/auth/link-mail";
import { clientAddress } from "@/lib/console/auth/sign-in";
import { setRequiredRoles } from "@/lib/console/auth/two-factor";
import { addUser, newPersonSchema, setUserDisabled, setUserRole, setUserTimeZone } from "@/lib/console/auth/users";
import { type ActionState, guardedAction } from "@/lib/console/bff/action";
import { users } from "@/lib/console/schema";
import { Problem } from "@/lib/contract/problem";
import { ROLE_LABELS, ROLES } from "@/lib/contract/roles";
import { canonicalTimeZone } from "@/lib/contract/time-zone";
import { getDatabase } from "@/lib/platform/db";

/** An answer that carries a one-time link, shown to the admin once (and emailed when SMTP_URL is set). */
export type LinkActionState = ActionState & {
  link?: IssuedLink & LinkDelivery;
  added?: { email: string; role: string };
  /** What taking the account back removed, in a sentence. */
  takenBack?: string;
};

/**
 * The Users page's forms; each needs users:manage. A person is added without a password: the answer is their
 * invitation, with which they choose one themselves.
 */
export const addUserAction = guardedAction("users:manage", newPersonSchema, async (input, actor): Promise<LinkActionState> => {
  const db = await getDatabase();
  const user = await addUser(db, input, actor!);
  const link = await issueLink(db, { kind: "invite", userId: user.id, actor: actor!, address: clientAddress(await headers()) });
  const delivery = await emailLink(link, user);
  revalidatePath("/users");
  return {
    ok: `${user.email} is added as ${ROLE_LABELS[input.role]}. Send them this invitation to choose their password.`,
    link: { ...link, ...delivery },
    added: { email: user.email, role: user.role },
    answeredAt: Date.now(),
  };
});

const resetSchema = z.object({
  email: z.email(),
  /** A checkbox: someone else may have used the account (./second-factors.ts takeAccountBack). */
  take_back: z.literal("on").optional(),
});

/**
 * A one-time link for someone to choose a new password; their sessions end when they use it. Taking the account
 * back also removes its passkeys and authenticator app and ends its sessions now: a passkey is a whole sign-in of
 * its own, which a new password would leave working.
 */
export const issueResetLinkAction = guardedAction(
  "users:manage",
  resetSchema,
  async ({ email, take_back }, actor): Promise<LinkActionState> => {
    const db = await getDatabase();
    const [user] = await db
      .select({ id: users.id, email: users.email, name: users.name })
      .from(users)
      .where(eq(users.email, email.toLowerCase()));
    if (!user) throw Problem.of("not_found", { title: "No such user", detail: `No account has the email ${email}.` });
    const address = clientAddress(await headers());
    // The link first: what refuses one (a demo account keeps its password) then takes nothing away.
    const link = await issueLink(db, { kind: "reset", userId: user.id, actor: actor!, address });
    const taken = take_back ? await takeAccountBack(db, user, actor!, address) : null;
    const delivery = await emailLink(link, user);
    return {
      ok: `A password reset link for ${user.email}.`,
      link: { ...link, ...delivery },
      ...(taken ? { takenBack: takenBackSentence(taken) } : {}),
      answeredAt: Date.now(),
    };
  },
);

const roleChangeSchema = z.object({
  email: z.email(),
  role: z.enum(ROLES, { error: "Choose a role" }),
});

export const setRoleAction = guardedAction("users:manage", roleChangeSchema, async ({ email, role }, actor) => {
  await setUserRole(await getDatabase(), email, role, actor!);
  revalidatePath("/users");
  return { ok: `${email} is now ${role}.` };
});

const accessChangeSchema = z.object({
  email: z.email(),
  disabled: z.enum(["true", "false"]).transform((value) => value === "true"),
});

export const setAccessAction = guardedAction("users:manage", accessChangeSchema, async ({ email, disabled }, actor) => {
  await setUserDisabled(await getDatabase(), email, disabled, actor!);
  revalidatePath("/users");
  return { ok: disabled ? `${email} can no longer sign in.` : `${email} can sign in again.` };
});

const timeZoneSchema = z.object({
  // Empty: the business zone (CONSOLE_TIME_ZONE); otherwise an IANA name this runtime knows, canonicalised.
  time_zone: z
    .string()
    .trim()
    .transform((value, ctx) => {
      if (value === "") return null;
      const zone = canonicalTimeZone(value);
      if (!zone) ctx.addIssue({ code: "custom", message: `${JSON.stringify(value)} is not an IANA time zone name like "Europe/Berlin"` });
      return zone;
    }),
});

/** Anyone signed in: the zone they count days and read times in, for themselves only (lib/contract/time-zone.ts). */
export const setTimeZoneAction = guardedAction("signed-in", timeZoneSchema, async ({ time_zone }, user) => {
  await setUserTimeZone(await getDatabase(), user!, time_zone);
  // Every page draws days and times in it: the whole app, not one path.
  revalidatePath("/", "layout");
  return {
    ok: time_zone ? `Days and times are now in ${time_zone}.` : "Days and times are now in the business time zone.",
    answeredAt: Date.now(),
  };
});

/** Each role's checkbox ("required.admin": "on"); an unticked box is not posted, so every role is optional. */
const requirementSchema = z.object(Object.fromEntries(ROLES.map((role) => [`required.${role}`, z.literal("on").optional()])));

/** Which roles must sign in with a second factor: stored in console.settings, overriding TWO_FACTOR_REQUIRED_ROLES. */
export const setTwoFactorRequirementAction = guardedAction("users:manage", requirementSchema, async (input, actor) => {
  const roles = ROLES.filter((role) => input[`required.${role}`] === "on");
  await setRequiredRoles(await getDatabase(), roles, actor!);
  // Who is let in changes for every page at once.
  revalidatePath("/", "layout");
  return {
    ok: roles.length
      ? `People with the role ${roles.join(", ")} now sign in with an authenticator app.`
      : "No role needs a second factor now.",
    answeredAt: Date.now(),
  };
});

function takenBackSentence(taken: { passkeys: number; app: boolean; sessions: number }): string {
  const parts = [
    taken.passkeys ? `${taken.passkeys} ${taken.passkeys === 1 ? "passkey" : "passkeys"}` : null,
    taken.app ? "the authenticator app" : null,
  ].filter(Boolean);
  const factors = parts.length ? `Removed ${parts.join(" and ")}` : "They had no passkey or authenticator app";
  return `Their password no longer works. ${factors}; ${taken.sessions === 1 ? "1 session ended" : `${taken.sessions} sessions ended`}.`;
}
