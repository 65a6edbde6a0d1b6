import "server-only";
import { parseCookies } from "better-auth/cookies";
import { getDatabase } from "@/lib/platform/db";
import { knownDevice, rememberDevice } from "./known-device";
import { getAuth } from "./server";
import { verifiedToken } from "./session-read";
import { auditSignIn, authErrorStatus, blockedText, clientAddress, type SignInResult } from "./sign-in";
import { reserveSignInAttempt, signInSucceeded } from "./sign-in-limiter";
import { claimTotpCode, storedRecoveryCode } from "./two-factor";

/** A six-digit code is the app's; anything else is read as a recovery code ("abcde-12345"). */
const isAppCode = (code: string) => /^\d{6}$/.test(code);

/**
 * The person whose password was right and whose code is asked for now: better-auth's pending sign-in, a signed
 * cookie naming a verification row that runs out after TWO_FACTOR_PENDING_SECONDS. Null when there is none.
 */
export async function pendingSignIn(requestHeaders: Headers): Promise<{ id: string; email: string } | null> {
  const cookieHeader = requestHeaders.get("cookie");
  if (!cookieHeader) return null;
  const context = await (await getAuth()).$context;
  const signed = parseCookies(cookieHeader).get(context.createAuthCookie("two_factor").name);
  const identifier = signed ? verifiedToken(signed, context.secret) : null;
  if (!identifier) return null;
  const row = await context.internalAdapter.findVerificationValue(identifier);
  if (!row || row.expiresAt.getTime() <= Date.now()) return null;
  const user = await context.internalAdapter.findUserById(row.value);
  return user ? { id: user.id, email: user.email } : null;
}

/**
 * The second step of signing in: an authenticator code, accepted once (./two-factor.ts claims its time step), or a
 * recovery code, which better-auth strikes off as it accepts it. Every attempt counts toward the same limits as a
 * password (./sign-in-limiter.ts), for the account and the address; a right code clears them as a sign-in does.
 */
export async function signInWithCode(input: { code: unknown }, headers: Headers): Promise<SignInResult & { email?: string }> {
  const pending = await pendingSignIn(headers);
  if (!pending) {
    return { ok: false, error: "Your sign-in was not finished in time. Enter your email and password again." };
  }
  const code = typeof input.code === "string" ? input.code.trim().replace(/\s+/g, "").slice(0, 64) : "";
  if (!code) return { ok: false, step: "code", fieldErrors: { code: "Enter the 6-digit code from your app, or a recovery code." } };
  const db = await getDatabase();
  const address = clientAddress(headers);
  const device = await knownDevice(headers, pending.email);
  const blocked = await reserveSignInAttempt(db, pending.email, address, device);
  if (blocked) return { ok: false, step: "code", error: blockedText(blocked), retryAfterSeconds: blocked.retryAfterSeconds };

  const method = isAppCode(code) ? "totp" : "recovery_code";
  const refuse = async (reason: string, message: string): Promise<SignInResult> => {
    await auditSignIn(db, "system", "sign_in.code_failed", pending.email, { address, method, reason });
    return { ok: false, step: "code", fieldErrors: { code: message } };
  };
  const auth = await getAuth();
  try {
    if (method === "totp") {
      const check = await claimTotpCode(db, pending.id, code);
      if (check === "replayed") return refuse("replayed", "That code was used already. Wait for the next one in your app.");
      if (check === "invalid") return refuse("invalid", "That code does not match. Enter the code your app shows now.");
      await auth.api.verifyTOTP({ body: { code }, headers });
    } else {
      // Checked once, in the form it is stored in: a typo costs one of the sign-in's attempts, not two.
      await auth.api.verifyBackupCode({ body: { code: await storedRecoveryCode(db, pending.id, code) }, headers });
    }
  } catch (error) {
    const status = authErrorStatus(error);
    if (status === 401) return refuse("invalid", "That recovery code does not match one of yours, or was used already.");
    if (status === 400) return { ok: false, error: "Too many wrong codes for this sign-in. Enter your email and password again." };
    throw error;
  }
  await signInSucceeded(db, pending.email, address, device);
  await rememberDevice(pending.email);
  if (method === "recovery_code") await auditSignIn(db, pending, "sign_in.recovery_code_used", pending.email, { address });
  await auditSignIn(db, pending, "sign_in", pending.email, { address, method });
  return { ok: true, email: pending.email };
}
