import "server-only";
import { symmetricDecrypt } from "better-auth/crypto";
import { and, eq, lt } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import QRCode from "qrcode";
import { recordAudit } from "@/lib/console/audit";
import { settings, totpUsedSteps, twoFactors } from "@/lib/console/schema";
import { Problem } from "@/lib/contract/problem";
import { isRole, type Role } from "@/lib/contract/roles";
import type { Db } from "@/lib/platform/db";
import { env } from "@/lib/platform/env";
import { recoveryCodeAsWritten } from "./recovery-codes";
import { syncSecondFactorFlag } from "./second-factors";
import { getAuth } from "./server";
import type { SessionUser } from "./session";
import { countedProof, verifyCurrentPassword } from "./signed-in-proof";
import { matchingStep, TOTP_PERIOD_SECONDS } from "./totp";

/**
 * Authenticator-app codes over better-auth's two-factor plugin (lib/console/auth/server.ts). better-auth makes
 * the secret and the recovery codes and checks codes at sign-in; this module adds what it lacks: a code is
 * accepted once (its verify endpoints accept the same code again within its window), and confirming or removing
 * a factor without replacing the session, which a server action's redraw would read as signed out.
 */

/** The settings row that overrides TWO_FACTOR_REQUIRED_ROLES (the Users page). */
export const REQUIRED_ROLES_KEY = "two_factor_required_roles";
const ISSUER = "Invoice Console";

/** The stored choice ("admin,finance"; "" for none) as roles; null when no admin has chosen: the environment's. */
export function requiredRolesFrom(stored: string | null | undefined): Role[] {
  if (stored === null || stored === undefined) return env().twoFactorRequiredRoles;
  return stored.split(",").filter(isRole);
}

export async function requiredRoles(db: Db): Promise<{ roles: Role[]; chosen: boolean }> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, REQUIRED_ROLES_KEY));
  return { roles: requiredRolesFrom(row?.value), chosen: row !== undefined };
}

export async function setRequiredRoles(db: Db, roles: Role[], actor: SessionUser): Promise<void> {
  const value = roles.join(",");
  await db.transaction(async (tx) => {
    const before = await requiredRoles(tx);
    await tx.insert(settings).values({ key: REQUIRED_ROLES_KEY, value }).onConflictDoUpdate({ target: settings.key, set: { value } });
    await recordAudit(tx, {
      actor,
      action: "two_factor.requirement_changed",
      target: "settings:two_factor",
      detail: { from: before.roles, to: roles },
    });
  });
}

async function decrypt(data: string): Promise<string> {
  return symmetricDecrypt({ key: (await (await getAuth()).$context).secretConfig, data });
}

/**
 * The person's recovery code `typed` means, as it is stored: exactly, else in any case (codes from before they were
 * upper case only), else read as the codes are written (./recovery-codes.ts: O for 0, I or L for 1, no dash). As
 * typed when none matches, so the one check that follows refuses it.
 */
export async function storedRecoveryCode(db: Db, userId: string, typed: string): Promise<string> {
  const factor = await factorOf(db, userId);
  if (!factor?.backupCodes) return typed;
  const stored = JSON.parse(await decrypt(factor.backupCodes)) as string[];
  const written = recoveryCodeAsWritten(typed);
  return (
    stored.find((code) => code === typed) ??
    stored.find((code) => code.toUpperCase() === typed.toUpperCase()) ??
    stored.find((code) => code === written) ??
    typed
  );
}

async function factorOf(db: Db, userId: string) {
  const [row] = await db.select().from(twoFactors).where(eq(twoFactors.userId, userId));
  return row;
}

export type CodeCheck = "ok" | "invalid" | "replayed";

/**
 * Whether `code` is this person's current authenticator code, claiming its time step so that it is never
 * accepted again (one row per person and step; steps older than the window are dropped as they go).
 */
export async function claimTotpCode(db: Db, userId: string, code: string, now = Date.now()): Promise<CodeCheck> {
  const factor = await factorOf(db, userId);
  if (!factor) return "invalid";
  const step = matchingStep(await decrypt(factor.secret), code.replace(/\s/g, ""), now);
  if (step === null) return "invalid";
  await db
    .delete(totpUsedSteps)
    .where(and(eq(totpUsedSteps.userId, userId), lt(totpUsedSteps.step, step - 2 * Math.ceil(300 / TOTP_PERIOD_SECONDS))));
  const claimed = await db.insert(totpUsedSteps).values({ userId, step }).onConflictDoNothing().returning({ step: totpUsedSteps.step });
  return claimed.length ? "ok" : "replayed";
}

/** What the Account page draws: no factor, one waiting for its first code (with its URI), or one in use. */
export type Enrolment = { state: "off" } | { state: "pending"; uri: string; qr: string } | { state: "on" };

export async function enrolment(db: Db, user: Pick<SessionUser, "id" | "email">): Promise<Enrolment> {
  const factor = await factorOf(db, user.id);
  if (!factor) return { state: "off" };
  if (factor.verified) return { state: "on" };
  const uri = otpauthUri(await decrypt(factor.secret), user.email);
  return { state: "pending", uri, qr: await otpauthQr(uri) };
}

/** The key URI authenticator apps read (Google's format, as better-auth writes it): base32 of the secret's bytes. */
export function otpauthUri(secret: string, email: string): string {
  return new TOTP({
    issuer: ISSUER,
    label: email,
    secret: Secret.fromUTF8(secret),
    digits: 6,
    period: TOTP_PERIOD_SECONDS,
    algorithm: "SHA1",
  }).toString();
}

/** The same URI as a QR code, an SVG drawn on the server (nothing loads from elsewhere). */
export function otpauthQr(uri: string): Promise<string> {
  return QRCode.toString(uri, { type: "svg", margin: 1, errorCorrectionLevel: "M" });
}

const fieldProblem = (field: string, detail: string) =>
  Problem.of("validation_failed", { detail, errors: [{ pointer: `/${field}`, code: "invalid", detail }] });

const codeProblem = (check: Exclude<CodeCheck, "ok">) =>
  fieldProblem(
    "code",
    check === "replayed"
      ? "That code was used already. Wait for the next one in your app."
      : "That code does not match. Enter the 6-digit code your app shows now.",
  );

/**
 * Step one: the password again (counted as a sign-in attempt, ./signed-in-proof.ts), then better-auth makes a new
 * secret and ten recovery codes, kept unconfirmed (its `enableTwoFactor`, which leaves the session as it is).
 * Starting again replaces an unconfirmed secret.
 */
export async function startEnrolment(
  db: Db,
  user: Pick<SessionUser, "id" | "email">,
  password: string,
  context: { headers: Headers; address: string },
): Promise<void> {
  if (!(await verifyCurrentPassword(db, user, password, { ...context, purpose: "authenticator_app" }))) {
    throw fieldProblem("password", "That password is not right.");
  }
  try {
    await (await getAuth()).api.enableTwoFactor({ body: { password }, headers: context.headers });
  } catch (error) {
    const code = (error as { body?: { code?: string } }).body?.code;
    if (code === "INVALID_PASSWORD") throw fieldProblem("password", "That password is not right.");
    if (code === "TOTP_ALREADY_ENABLED") throw fieldProblem("password", "An authenticator app is already set up.");
    throw error;
  }
}

/** Step two: the first code confirms the app; answers the recovery codes, shown this once. */
export async function confirmEnrolment(db: Db, user: SessionUser, code: string, address: string): Promise<string[]> {
  const factor = await factorOf(db, user.id);
  if (!factor || factor.verified) throw fieldProblem("code", "Start the set-up again: there is no app waiting for its first code.");
  const check = await claimTotpCode(db, user.id, code);
  if (check !== "ok") throw codeProblem(check);
  await db.transaction(async (tx) => {
    await tx.update(twoFactors).set({ verified: true }).where(eq(twoFactors.id, factor.id));
    await syncSecondFactorFlag(tx, user.id);
    await recordAudit(tx, {
      actor: user,
      action: "two_factor.added",
      target: `user:${user.email}`,
      detail: { method: "totp", address },
    });
  });
  return JSON.parse(await decrypt(factor.backupCodes)) as string[];
}

/** Turning it off takes a current code, so a session left open is not enough. */
export async function removeFactor(db: Db, user: SessionUser, code: string, context: { headers: Headers; address: string }): Promise<void> {
  const { address } = context;
  // A session left open must not be a way to guess the code away: each counts as a sign-in attempt.
  const succeeded = await countedProof(db, user.email, context);
  const check = await claimTotpCode(db, user.id, code);
  if (check !== "ok") {
    await recordAudit(db, {
      actor: user,
      action: "two_factor.remove_failed",
      target: `user:${user.email}`,
      detail: { address, reason: check },
    });
    throw codeProblem(check);
  }
  await succeeded();
  await db.transaction(async (tx) => {
    await tx.delete(twoFactors).where(eq(twoFactors.userId, user.id));
    await syncSecondFactorFlag(tx, user.id);
    await recordAudit(tx, {
      actor: user,
      action: "two_factor.removed",
      target: `user:${user.email}`,
      detail: { method: "totp", address },
    });
  });
}
