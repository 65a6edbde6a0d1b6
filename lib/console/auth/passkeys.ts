import "server-only";
import { randomUUID } from "node:crypto";
import {
  type AuthenticationResponseJSON,
  type AuthenticatorTransportFuture,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
import { and, asc, count, eq, like, lt, sql } from "drizzle-orm";
import { z } from "zod";
import { recordAudit } from "@/lib/console/audit";
import { passkeys, users, verifications } from "@/lib/console/schema";
import { parseJson } from "@/lib/contract/parse-json";
import { Problem } from "@/lib/contract/problem";
import { describeUserAgent } from "@/lib/contract/user-agent";
import { type Db, getDatabase } from "@/lib/platform/db";
import { env } from "@/lib/platform/env";
import { knownDevice, rememberDevice } from "./known-device";
import { syncSecondFactorFlag } from "./second-factors";
import { getAuth } from "./server";
import type { SessionUser } from "./session";
import { auditSignIn, clientAddress } from "./sign-in";
import { signInSucceeded } from "./sign-in-limiter";
import { signedBy, signValue } from "./signed-value";

/**
 * Passkeys (WebAuthn) over SimpleWebAuthn: a person adds them on Account, then signs in with one instead of the
 * password, or uses one as the second factor after it. The browser's part is components/account/passkeys-section.tsx
 * and components/auth/passkey-sign-in.tsx. Every ceremony asks the authenticator to verify the person (a PIN, a
 * fingerprint), so a passkey alone is two factors. Challenges live five minutes and are used once (sealChallenge).
 */

const CHALLENGE_TTL_MS = 5 * 60 * 1000;
const CHALLENGE_PURPOSE = "passkey-challenge/v1";
/** An answered challenge's id is kept as this, until the challenge would have run out. */
const ANSWERED = "passkey-answered:";
export const PASSKEY_NAME_MAX = 60;

/** The console's origin and WebAuthn relying-party id (its host name), both from PUBLIC_URL. */
function relyingParty() {
  const url = new URL(env().publicUrl);
  return { origin: url.origin, rpID: url.hostname, rpName: "Invoice Console" };
}

export type PasskeyEntry = { id: string; name: string; createdAt: string; lastUsedAt: string | null; synced: boolean };

export async function listPasskeys(db: Db, userId: string): Promise<PasskeyEntry[]> {
  const rows = await db
    .select({
      id: passkeys.id,
      name: passkeys.name,
      createdAt: passkeys.createdAt,
      lastUsedAt: passkeys.lastUsedAt,
      synced: passkeys.backedUp,
    })
    .from(passkeys)
    .where(eq(passkeys.userId, userId))
    .orderBy(asc(passkeys.createdAt));
  return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString(), lastUsedAt: row.lastUsedAt?.toISOString() ?? null }));
}

/** A name to start from: the browser and system adding it ("Chrome on macOS"). */
export function suggestedPasskeyName(userAgent: string | null): string {
  const { browser, system } = describeUserAgent(userAgent);
  return browser === "Unknown browser" ? "My passkey" : `${browser.replace(/ \d+$/, "")} on ${system}`.slice(0, PASSKEY_NAME_MAX);
}

/** Whether a person has any passkey: the sign-in's code step offers one then. */
export async function hasPasskey(db: Db, userId: string): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, userId));
  return row.n > 0;
}

type Challenge = { challenge: string; userId: string | null; purpose: "register" | "authenticate" };

/**
 * A challenge travels sealed in its id — its value, for whom and what, until when, signed with the console's secret
 * — and nothing is stored until it is answered: starting sign-ins by the thousand fills nothing, so it locks nobody
 * out of signing in with their passkey.
 */
async function sealChallenge(value: Challenge): Promise<string> {
  const payload = Buffer.from(JSON.stringify({ ...value, until: Date.now() + CHALLENGE_TTL_MS })).toString("base64url");
  return `${payload}.${await signValue(CHALLENGE_PURPOSE, payload)}`;
}

/**
 * The challenge sealed in `id`, answered once: the first answer keeps its id (until the challenge runs out), and
 * any other answer to it is refused. Null when forged, for another purpose, run out, or answered already.
 */
async function takeChallenge(db: Db, id: string, purpose: Challenge["purpose"]): Promise<Challenge | null> {
  const [payload, signed, ...rest] = id.split(".");
  if (!payload || !signed || rest.length) return null;
  if (!(await signedBy(CHALLENGE_PURPOSE, payload, signed))) return null;
  const value = JSON.parse(Buffer.from(payload, "base64url").toString()) as Challenge & { until: number };
  if (value.purpose !== purpose || !(value.until > Date.now())) return null;
  // Answered ones that ran out, and challenges stored before they were sealed.
  await db.delete(verifications).where(and(like(verifications.identifier, "passkey%"), lt(verifications.expiresAt, new Date())));
  // Remembered by the challenge itself (random, one per seal), whatever spelling of the id brought it.
  const key = `${ANSWERED}${value.challenge}`;
  const first = await db
    .insert(verifications)
    .values({ id: key, identifier: key, value: "", expiresAt: new Date(value.until) })
    .onConflictDoNothing()
    .returning({ id: verifications.id });
  return first.length ? { challenge: value.challenge, userId: value.userId, purpose: value.purpose } : null;
}

const expired = () => Problem.of("validation_failed", { detail: "The passkey request ran out of time. Try again.", errors: [] });

/** Adding a passkey, step one (after the password, ./passkey-actions.ts): the options the browser hands its authenticator. */
export async function registrationOptions(
  db: Db,
  user: Pick<SessionUser, "id" | "email" | "name">,
): Promise<{ challengeId: string; options: PublicKeyCredentialCreationOptionsJSON }> {
  const { rpID, rpName } = relyingParty();
  const existing = await db
    .select({ id: passkeys.credentialId, transports: passkeys.transports })
    .from(passkeys)
    .where(eq(passkeys.userId, user.id));
  const options = await generateRegistrationOptions({
    rpName,
    rpID,
    userName: user.email,
    userDisplayName: user.name,
    userID: new TextEncoder().encode(user.id),
    attestationType: "none",
    excludeCredentials: existing.map((c) => ({ id: c.id, transports: transportsOf(c.transports) })),
    authenticatorSelection: { residentKey: "required", userVerification: "required" },
  });
  const challengeId = await sealChallenge({ challenge: options.challenge, userId: user.id, purpose: "register" });
  return { challengeId, options };
}

/** Step two: the authenticator's answer, checked against the challenge; the passkey is kept under `name`. */
export async function addPasskey(
  db: Db,
  user: SessionUser,
  input: { challengeId: string; response: RegistrationResponseJSON; name: string },
  address: string,
): Promise<PasskeyEntry> {
  const challenge = await takeChallenge(db, input.challengeId, "register");
  if (!challenge || challenge.userId !== user.id) throw expired();
  const { origin, rpID } = relyingParty();
  const verification = await verifyRegistrationResponse({
    response: input.response,
    expectedChallenge: challenge.challenge,
    expectedOrigin: origin,
    expectedRPID: rpID,
    requireUserVerification: true,
  }).catch(() => null);
  if (!verification?.verified) {
    throw Problem.of("validation_failed", { detail: "Your browser's answer could not be checked. Try again.", errors: [] });
  }
  const { credential, credentialDeviceType, credentialBackedUp } = verification.registrationInfo;
  const id = randomUUID();
  await db.transaction(async (tx) => {
    const inserted = await tx
      .insert(passkeys)
      .values({
        id,
        userId: user.id,
        name: input.name,
        credentialId: credential.id,
        publicKey: Buffer.from(credential.publicKey).toString("base64url"),
        counter: credential.counter,
        transports: (credential.transports ?? []).join(","),
        deviceType: credentialDeviceType,
        backedUp: credentialBackedUp,
      })
      .onConflictDoNothing()
      .returning({ id: passkeys.id });
    if (!inserted.length) {
      throw Problem.of("validation_failed", { detail: "This passkey is added already.", errors: [] });
    }
    await syncSecondFactorFlag(tx, user.id);
    await recordAudit(tx, {
      actor: user,
      action: "two_factor.added",
      target: `user:${user.email}`,
      detail: { method: "passkey", name: input.name, address },
    });
  });
  const [entry] = (await listPasskeys(db, user.id)).filter((p) => p.id === id);
  return entry;
}

/** Removing one of the person's own passkeys; another person's id is "not found", as one that does not exist. */
export async function removePasskey(db: Db, user: SessionUser, id: string, address: string): Promise<string> {
  return db.transaction(async (tx) => {
    const [removed] = await tx
      .delete(passkeys)
      .where(and(eq(passkeys.id, id), eq(passkeys.userId, user.id)))
      .returning({ name: passkeys.name });
    if (!removed) throw Problem.of("not_found", { detail: "That passkey is not one of yours, or was removed already." });
    await syncSecondFactorFlag(tx, user.id);
    await recordAudit(tx, {
      actor: user,
      action: "two_factor.removed",
      target: `user:${user.email}`,
      detail: { method: "passkey", name: removed.name, address },
    });
    return removed.name;
  });
}

/**
 * Signing in with a passkey, step one: a challenge for any of the console's passkeys (the browser offers the
 * person theirs), or, for a person whose password was right, for theirs alone.
 */
export async function authenticationOptions(
  db: Db,
  forUserId: string | null,
): Promise<{ challengeId: string; options: PublicKeyCredentialRequestOptionsJSON }> {
  const allow = forUserId
    ? await db.select({ id: passkeys.credentialId, transports: passkeys.transports }).from(passkeys).where(eq(passkeys.userId, forUserId))
    : [];
  const options = await generateAuthenticationOptions({
    rpID: relyingParty().rpID,
    userVerification: "required",
    allowCredentials: allow.map((c) => ({ id: c.id, transports: transportsOf(c.transports) })),
  });
  const challengeId = await sealChallenge({ challenge: options.challenge, userId: forUserId, purpose: "authenticate" });
  return { challengeId, options };
}

export type PasskeySignIn = { ok: true; email: string } | { ok: false; error: string };

/**
 * Step two: the authenticator's signature checked against the stored public key and the challenge, its counter
 * moved on, and a session started (./verified-sign-in.ts) that also settles a pending password sign-in. A
 * disabled account is refused as it is with a password. Every outcome is audited.
 */
export async function signInWithPasskey(
  input: { challengeId: string; response: AuthenticationResponseJSON },
  requestHeaders: Headers,
): Promise<PasskeySignIn> {
  const db = await getDatabase();
  const address = clientAddress(requestHeaders);
  const challenge = await takeChallenge(db, input.challengeId, "authenticate");
  if (!challenge) return { ok: false, error: "The passkey request ran out of time. Try again." };
  const [stored] = await db
    .select({ passkey: passkeys, email: users.email, banned: users.banned })
    .from(passkeys)
    .innerJoin(users, eq(users.id, passkeys.userId))
    .where(eq(passkeys.credentialId, input.response.id));
  const unknown = "This passkey is not one this console knows. Sign in with your email and password.";
  if (!stored || (challenge.userId && stored.passkey.userId !== challenge.userId)) {
    await auditSignIn(db, "system", "sign_in.failed", stored?.email ?? "unknown", {
      address,
      method: "passkey",
      reason: "unknown_passkey",
    });
    return { ok: false, error: unknown };
  }
  const { origin, rpID } = relyingParty();
  const verification = await verifyAuthenticationResponse({
    response: input.response,
    expectedChallenge: challenge.challenge,
    expectedOrigin: origin,
    expectedRPID: rpID,
    requireUserVerification: true,
    credential: {
      id: stored.passkey.credentialId,
      publicKey: Buffer.from(stored.passkey.publicKey, "base64url"),
      counter: stored.passkey.counter,
      transports: transportsOf(stored.passkey.transports),
    },
  }).catch(() => null);
  if (!verification?.verified) {
    await auditSignIn(db, "system", "sign_in.failed", stored.email, { address, method: "passkey", reason: "signature" });
    return { ok: false, error: "Your passkey's answer could not be checked. Try again, or sign in with your password." };
  }
  if (stored.banned) {
    await auditSignIn(db, "system", "sign_in.failed", stored.email, { address, method: "passkey", reason: "disabled" });
    return { ok: false, error: "This account is disabled. Ask an admin about it." };
  }
  await db
    .update(passkeys)
    .set({ counter: verification.authenticationInfo.newCounter, lastUsedAt: sql`now()` })
    .where(eq(passkeys.id, stored.passkey.id));
  await (await getAuth()).api.signInVerifiedPerson({ body: { userId: stored.passkey.userId }, headers: requestHeaders });
  const device = await knownDevice(requestHeaders, stored.email);
  // A passkey alone counted no attempt against the address: it gives none back. As the second step of a password
  // sign-in (a challenge for that person), the password's attempt, still counted, is given back.
  await signInSucceeded(db, stored.email, address, device, { counted: challenge.userId !== null });
  await rememberDevice(stored.email);
  const person = { id: stored.passkey.userId, email: stored.email };
  await auditSignIn(db, person, "sign_in", stored.email, { address, method: "passkey", passkey: stored.passkey.name });
  return { ok: true, email: stored.email };
}

const TRANSPORTS = new Set<AuthenticatorTransportFuture>(["ble", "cable", "hybrid", "internal", "nfc", "smart-card", "usb"]);
function transportsOf(stored: string): AuthenticatorTransportFuture[] {
  return stored.split(",").filter((t): t is AuthenticatorTransportFuture => TRANSPORTS.has(t as AuthenticatorTransportFuture));
}

/** The browser's answers as they arrive in a form field: JSON, bounded, checked for the shape SimpleWebAuthn reads. */
const credentialShape = z.object({
  id: z.string().min(1).max(1024),
  rawId: z.string().min(1).max(1024),
  type: z.literal("public-key"),
  response: z.record(z.string(), z.unknown()),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  authenticatorAttachment: z.string().optional(),
});

export function parseCredential<T extends RegistrationResponseJSON | AuthenticationResponseJSON>(text: string): T | null {
  try {
    const parsed = credentialShape.safeParse(parseJson(text));
    return parsed.success ? (parsed.data as unknown as T) : null;
  } catch {
    return null;
  }
}
