import "server-only";
import { z } from "zod";
import { getDatabase } from "@/lib/platform/db";
import { getAuth } from "./server";
import { reserveSignInAttempt, signInSucceeded } from "./sign-in-limiter";

export type SignInResult = { ok: true } | { ok: false; error: string; fieldErrors?: { email?: string; password?: string } };

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
 * address pause further attempts, with a message that says for how long. Sets the session cookie.
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

  const blocked = await reserveSignInAttempt(db, email, address);
  if (blocked) {
    const wait = waitText(blocked.retryAfterSeconds);
    return {
      ok: false,
      error:
        blocked.scope === "account"
          ? `Too many failed attempts for this account. Try again in ${wait}.`
          : `Too many failed attempts from your network. Try again in ${wait}.`,
    };
  }

  try {
    await (await getAuth()).api.signInEmail({ body: { email, password }, headers });
  } catch (error) {
    const status = authErrorStatus(error);
    if (status === 401 || status === 400) {
      // The attempt stays counted. The same words for an unknown email and a wrong password: the form must not reveal who has an account.
      return { ok: false, error: "That email and password do not match an account. Check both and try again." };
    }
    if (status === 403) {
      return { ok: false, error: "This account is disabled. Ask an admin about it." };
    }
    throw error;
  }
  await signInSucceeded(db, email, address);
  return { ok: true };
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
function authErrorStatus(error: unknown): number | undefined {
  if (typeof error === "object" && error !== null && "statusCode" in error && typeof error.statusCode === "number") {
    return error.statusCode;
  }
  return undefined;
}
