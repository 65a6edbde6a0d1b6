import "server-only";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { recordAudit } from "@/lib/console/audit";
import { users } from "@/lib/console/schema";
import { type Db, getDatabase } from "@/lib/platform/db";
import { knownDevice, rememberDevice } from "./known-device";
import { type SecondFactors, secondFactorsOf } from "./second-factors";
import { getAuth } from "./server";
import { reserveSignInAttempt, signInSucceeded } from "./sign-in-limiter";

/**
 * A sign-in's answer: signed in, refused (with the fields to fix), or the password was right and the person's
 * second factor is asked for next (`step: "code"`; better-auth holds the pending sign-in in a signed cookie).
 */
export type SignInResult =
  | { ok: true }
  | {
      ok: false;
      step?: "code";
      /** With `step: "code"`: which second factors the person has, so the step offers those. */
      factors?: SecondFactors;
      error?: string;
      fieldErrors?: { email?: string; password?: string; code?: string };
      /** Refused by the limits, not by the credentials: when to try again (a route answers 429 with it). */
      retryAfterSeconds?: number;
    };

export const credentialsSchema = z.object({
  email: z
    .string()
    .trim()
    .toLowerCase()
    .min(1, { error: "Enter your email address." })
    // An address has at most 254 characters (RFC 5321); the limiter's keys hold it whole.
    .max(254, { error: "An email address has at most 254 characters." })
    .pipe(z.email({ error: "Enter an email address such as ana@example.com." })),
  password: z.string().min(1, { error: "Enter your password." }).max(1024, { error: "A password has at most 1024 characters." }),
});

/**
 * The address a request came from. scripts/server/server.mjs, the console's server, sets X-Forwarded-For to exactly
 * one address: the socket's, or the client a trusted proxy names (TRUSTED_PROXIES). Whatever a client sends
 * in that header itself never gets here.
 */
export function clientAddress(headers: Headers): string {
  return headers.get("x-forwarded-for")?.split(",").at(-1)?.trim() || "unknown";
}

/**
 * Email + password sign-in with the console's own limits: too many failures for one account or from one
 * address pause further attempts, with a message that says for how long. Sets the session cookie, and marks
 * the browser a known device of the person (./known-device.ts).
 */
export async function signInWithPassword(input: { email: unknown; password: unknown }, headers: Headers): Promise<SignInResult> {
  const parsed = credentialsSchema.safeParse(input);
  if (!parsed.success) {
    const fieldErrors = Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message]));
    return { ok: false, error: "Enter your email and password.", fieldErrors };
  }
  const { email, password } = parsed.data;
  const db = await getDatabase();
  const address = clientAddress(headers);

  const device = await knownDevice(headers, email);
  const blocked = await reserveSignInAttempt(db, email, address, device);
  if (blocked) return { ok: false, error: blockedText(blocked), retryAfterSeconds: blocked.retryAfterSeconds };

  let answer: Awaited<ReturnType<Auth["api"]["signInEmail"]>> | { twoFactorRedirect: true };
  try {
    answer = await (await getAuth()).api.signInEmail({ body: { email, password }, headers });
  } catch (error) {
    const status = authErrorStatus(error);
    if (status === 401 || status === 400 || status === 403) {
      await auditSignIn(db, "system", "sign_in.failed", email, { address, reason: status === 403 ? "disabled" : "password" });
    }
    if (status === 401 || status === 400) {
      // The attempt stays counted. The same words for an unknown email and a wrong password: the form must not reveal who has an account.
      return { ok: false, error: "That email and password do not match an account. Check both and try again." };
    }
    if (status === 403) {
      return { ok: false, error: "This account is disabled. Ask an admin about it." };
    }
    throw error;
  }
  // The attempt stays counted until the code is right too, so wrong codes count toward the same limits.
  if ("twoFactorRedirect" in answer) {
    const [person] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
    return { ok: false, step: "code", factors: await secondFactorsOf(db, person.id) };
  }
  await signInSucceeded(db, email, address, device);
  await rememberDevice(email);
  await auditSignIn(db, answer.user, "sign_in", email, { address, method: "password" });
  return { ok: true };
}

type Auth = Awaited<ReturnType<typeof getAuth>>;

export function blockedText(blocked: { scope: "account" | "address"; retryAfterSeconds: number }): string {
  const wait = waitText(blocked.retryAfterSeconds);
  return blocked.scope === "account"
    ? `Too many failed attempts for this account. Try again in ${wait}.`
    : `Too many failed attempts from your network. Try again in ${wait}.`;
}

/** Sign-ins, failed ones and codes are evidence too (DESIGN.md §4c): filed under the person they name. */
export async function auditSignIn(
  db: Db,
  actor: { id: string; email: string } | "system",
  action: string,
  email: string,
  detail: Record<string, unknown>,
): Promise<void> {
  await recordAudit(db, { actor, action, target: `user:${email}`, detail });
}

function waitText(seconds: number): string {
  if (seconds < 90) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minutes`;
}

/**
 * better-auth's APIError status, read by shape: the bundler may load its class twice, so `instanceof` is not
 * reliable across server bundles.
 */
export function authErrorStatus(error: unknown): number | undefined {
  if (typeof error === "object" && error !== null && "statusCode" in error && typeof error.statusCode === "number") {
    return error.statusCode;
  }
  return undefined;
}
