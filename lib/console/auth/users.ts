import "server-only";
import { asc, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import { recordAudit } from "@/lib/console/audit";
import { accounts, auditLog, passkeys, sessions, users } from "@/lib/console/schema";
import { hasBidiControl, NO_BIDI_CONTROLS } from "@/lib/contract/bidi";
import { Problem } from "@/lib/contract/problem";
import { ROLES, type Role } from "@/lib/contract/roles";
import type { Db } from "@/lib/platform/db";
import { passwordRuleBroken } from "./password-rules";
import { getAuth } from "./server";
import type { SessionUser } from "./session";

/** Well-known demo accounts (ARCHITECTURE.md §3.1), one per role: only ever present on the embedded sandbox. */
export const DEMO_PASSWORD = "sandbox-demo";
export const DEMO_USERS = ROLES.map((role) => ({ email: `${role}@example.com`, name: `Demo ${role}`, role }));

/** One of the embedded sandbox's demo accounts, whose password is published (they exist only there). */
export const isDemoAccount = (email: string) => DEMO_USERS.some((u) => u.email === email.toLowerCase());

/** A person as an admin adds them: they choose their own password from an invitation (./account-links.ts). */
export const newPersonSchema = z.object({
  email: z.email({ error: "must be an email address such as ana@example.com" }).trim().toLowerCase(),
  name: z
    .string()
    .trim()
    .min(1, { error: "must not be empty" })
    .max(100)
    .refine((name) => !hasBidiControl(name), { error: NO_BIDI_CONTROLS }),
  role: z.enum(ROLES, { error: `must be one of ${ROLES.join(", ")}` }),
});

/**
 * With a password only for the system's own accounts: the demo accounts' fixed one, ADMIN_PASSWORD (checked
 * against the password rules before) and tests. No form or action takes one.
 */
export const newUserSchema = newPersonSchema.extend({
  password: z.string().min(8, { error: "must be at least 8 characters" }).max(128).optional(),
});
export type NewUser = z.input<typeof newUserSchema>;

export type UserRow = {
  id: string;
  email: string;
  name: string;
  role: string;
  disabled: boolean;
  createdAt: Date;
  /** Their newest sign-in, from the activity log; null when they never signed in. */
  lastSignInAt: Date | null;
  /** Invited and not yet in: no password chosen, and no passkey. */
  invited: boolean;
};

export async function listUsers(db: Db): Promise<UserRow[]> {
  const rows = await db
    .select({
      id: users.id,
      email: users.email,
      name: users.name,
      role: users.role,
      banned: users.banned,
      createdAt: users.createdAt,
      // Qualified by hand: inside a selected field drizzle writes columns bare, so "email" or "id" would be read
      // from the subquery's own table wherever it has such a column.
      lastSignIn: sql<
        string | null
      >`(select max(l.at) from ${auditLog} l where l.target = 'user:' || ${users}.email and l.action = 'sign_in')`,
      invited: sql<boolean>`not exists (select 1 from ${accounts} a where a.user_id = ${users}.id and a.provider_id = 'credential')
        and not exists (select 1 from ${passkeys} p where p.user_id = ${users}.id)`,
    })
    .from(users)
    .orderBy(asc(users.email));
  return rows.map(({ banned, lastSignIn, ...row }) => ({
    ...row,
    disabled: !!banned,
    lastSignInAt: lastSignIn ? new Date(lastSignIn) : null,
  }));
}

type Actor = Pick<SessionUser, "id" | "email"> | "system";

/**
 * Adds a person. Without a password they have no credential account, so nothing signs them in until they
 * choose one from an invitation; with one (system use), better-auth hashes it.
 */
export async function addUser(db: Db, input: NewUser, actor: Actor): Promise<UserRow> {
  const parsed = newUserSchema.safeParse(input);
  if (!parsed.success) throw Problem.fromZod(parsed.error, "user");
  const { email, name, role, password } = parsed.data;
  const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
  if (existing) {
    throw Problem.of("user_exists", {
      title: "This email already has an account",
      detail: `${email} can already sign in; change their role instead.`,
      errors: [{ pointer: "/email", detail: "already has an account" }],
    });
  }
  const auth = await getAuth();
  const { user } = await auth.api.createUser({ body: { email, name, role, ...(password ? { password } : {}) } });
  await recordAudit(db, { actor, action: "user.created", target: `user:${email}`, detail: { role } });
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    role,
    disabled: false,
    createdAt: user.createdAt,
    lastSignInAt: null,
    invited: !password,
  };
}

export async function setUserRole(db: Db, email: string, role: Role, actor: Actor): Promise<void> {
  await changingAdmins(db, async (tx) => {
    const [user] = await tx
      .select({ id: users.id, role: users.role, banned: users.banned })
      .from(users)
      .where(eq(users.email, email.toLowerCase()));
    if (!user) throw Problem.of("not_found", { title: "No such user", detail: `No account has the email ${email}.` });
    if (user.role === role) return;
    if (user.role === "admin" && !user.banned && (await activeAdminCount(tx)) <= 1) {
      throw Problem.of("last_admin", {
        title: "The last admin cannot lose the role",
        detail: "Make someone else an admin first, so that somebody can still manage users.",
      });
    }
    await tx.update(users).set({ role, updatedAt: new Date() }).where(eq(users.id, user.id));
    await recordAudit(tx, {
      actor,
      action: "user.role_changed",
      target: `user:${email.toLowerCase()}`,
      detail: { from: user.role, to: role },
    });
  });
}

/**
 * Someone who leaves: they can no longer sign in, and every session they have ends now. Enabling restores
 * sign-in with the same password.
 */
export async function setUserDisabled(db: Db, email: string, disabled: boolean, actor: Actor): Promise<void> {
  await changingAdmins(db, async (tx) => {
    const [user] = await tx
      .select({ id: users.id, role: users.role, banned: users.banned })
      .from(users)
      .where(eq(users.email, email.toLowerCase()));
    if (!user) throw Problem.of("not_found", { title: "No such user", detail: `No account has the email ${email}.` });
    if (actor !== "system" && actor.id === user.id) {
      throw Problem.of("self", { title: "You cannot disable yourself", detail: "Ask another admin to do it." });
    }
    if (!!user.banned === disabled) return;
    if (disabled && user.role === "admin" && (await activeAdminCount(tx)) <= 1) {
      throw Problem.of("last_admin", { title: "The last admin cannot be disabled", detail: "Make someone else an admin first." });
    }
    await tx
      .update(users)
      .set({ banned: disabled, banReason: disabled ? "Disabled by an admin" : null, updatedAt: new Date() })
      .where(eq(users.id, user.id));
    if (disabled) await tx.delete(sessions).where(eq(sessions.userId, user.id));
    await recordAudit(tx, { actor, action: disabled ? "user.disabled" : "user.enabled", target: `user:${email.toLowerCase()}` });
  });
}

/**
 * The zone a person counts days and reads times in (lib/contract/time-zone.ts), for themselves only; null is the
 * business zone. Recorded, since it changes every date they see and export; choosing the same zone again is not.
 */
export async function setUserTimeZone(db: Db, person: Pick<SessionUser, "id" | "email">, timeZone: string | null): Promise<void> {
  await db.transaction(async (tx) => {
    const [before] = await tx.select({ timeZone: users.timeZone }).from(users).where(eq(users.id, person.id)).for("update");
    if (!before || before.timeZone === timeZone) return;
    await tx.update(users).set({ timeZone, updatedAt: new Date() }).where(eq(users.id, person.id));
    await recordAudit(tx, {
      actor: person,
      action: "user.time_zone_changed",
      target: `user:${person.email.toLowerCase()}`,
      detail: { from: before.timeZone, to: timeZone },
    });
  });
}

// Any fixed number (the migrations hold 7340101, the sandbox's seed 7340102).
const ADMINS_LOCK = 7_340_103;

/**
 * Every change that may leave fewer admins — a role change, disabling someone — reads the person, counts the
 * admins and writes in one transaction that first takes one transaction-scoped advisory lock, shared by every
 * instance on the database (PGlite has it too, and runs one transaction at a time anyway). Two admins
 * removing each other at the same moment on two instances therefore take turns: the second counts after the
 * first committed, sees the last admin, and is refused. Without it both counted two, and both went through.
 * The lock ends with the transaction, on commit, on rollback, and if the connection drops.
 */
function changingAdmins<T>(db: Db, change: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql.raw(`select pg_advisory_xact_lock(${ADMINS_LOCK})`));
    return change(tx as unknown as Db);
  });
}

/** Admins who can sign in: the people who can still manage users. */
async function activeAdminCount(db: Db): Promise<number> {
  const admins = await db.select({ banned: users.banned }).from(users).where(eq(users.role, "admin"));
  return admins.filter((a) => !a.banned).length;
}

/**
 * On start: the first admin from ADMIN_EMAIL / ADMIN_PASSWORD, and the demo users on the embedded sandbox —
 * or, against a real provider, no demo user at all (their passwords are public).
 */
export async function ensureStartupUsers(db: Db, opts: { embeddedSandbox: boolean; initialAdmin?: { email: string; password: string } }) {
  const wanted: NewUser[] = [];
  const existing = new Set((await listUsers(db)).map((u) => u.email));
  if (opts.initialAdmin && !existing.has(opts.initialAdmin.email.toLowerCase())) {
    // ADMIN_PASSWORD is chosen by a person, so the rules apply when it makes the admin; once made, it is not read
    // again (rules added since must not stop a console that started before). The length: lib/platform/env.ts.
    const broken = passwordRuleBroken(opts.initialAdmin.password);
    if (broken) throw new Error(`Invalid configuration:\n  ADMIN_PASSWORD: ${broken}`);
    wanted.push({ ...opts.initialAdmin, name: "Administrator", role: "admin" });
  }
  if (opts.embeddedSandbox) {
    wanted.push(...DEMO_USERS.map((u) => ({ ...u, password: DEMO_PASSWORD })));
  } else {
    await db.delete(users).where(
      inArray(
        users.email,
        DEMO_USERS.map((u) => u.email),
      ),
    );
  }
  for (const user of wanted) {
    if (!existing.has(user.email.toLowerCase())) await addUser(db, user, "system").catch(ignoreRace);
  }
}

function ignoreRace(error: unknown) {
  // Another instance starting at the same moment created the same user.
  if (!(error instanceof Problem && error.is("user_exists"))) throw error;
}
