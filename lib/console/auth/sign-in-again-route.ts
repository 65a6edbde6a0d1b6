import "server-only";
import type { AuthenticationResponseJSON } from "@simplewebauthn/server";
import { z } from "zod";
import { env } from "@/lib/platform/env";
import { parseCredential, signInWithPasskey } from "./passkeys";
import { type SignInResult, signInWithPassword } from "./sign-in";
import { signInWithCode } from "./sign-in-code";
import { DEMO_PASSWORD, DEMO_USERS } from "./users";

const demoSchema = z.object({ demo: z.enum(DEMO_USERS.map((u) => u.role) as [string, ...string[]]) });

export type SignInAgainAnswer = { ok: true; email: string } | Extract<SignInResult, { ok: false }>;

/**
 * Signing in again in place (components/auth/sign-in-again.tsx, through POST /api/session/sign-in): the same
 * sign-in, limits and all, as the sign-in page; it sets the session cookie and answers who signed in. A route,
 * not a server action: an action that sets a cookie makes Next.js draw the page again in its answer, with the
 * request's old, ended session, which would send the person to the sign-in page and lose what they typed.
 * On the embedded sandbox a demo account is chosen by its role; its password never travels to the browser.
 * A person with a second factor is asked for a code next (`step: "code"`), which comes back as `{ code }`; a
 * passkey's signed answer comes as `{ challengeId, response }`, in place of the password or of the code.
 */
export async function signInAgain(body: unknown, requestHeaders: Headers): Promise<SignInAgainAnswer> {
  if (body && typeof body === "object" && "challengeId" in body && "response" in body) {
    const credential = typeof body.response === "string" ? parseCredential<AuthenticationResponseJSON>(body.response) : null;
    if (!credential || typeof body.challengeId !== "string")
      return { ok: false, error: "Your browser's answer could not be read. Try again." };
    const result = await signInWithPasskey({ challengeId: body.challengeId, response: credential }, requestHeaders);
    return result.ok ? result : { ok: false, error: result.error };
  }
  if (body && typeof body === "object" && "code" in body) {
    const result = await signInWithCode({ code: body.code }, requestHeaders);
    return result.ok ? { ok: true, email: result.email ?? "" } : result;
  }
  const demo = demoSchema.safeParse(body);
  const given = (body ?? {}) as { email?: unknown; password?: unknown };
  const credentials = demo.success
    ? env().embeddedSandbox
      ? { email: `${demo.data.demo}@example.com`, password: DEMO_PASSWORD }
      : { email: "", password: "" }
    : { email: given.email, password: given.password };
  const result = await signInWithPassword(credentials, requestHeaders);
  if (!result.ok) return result;
  return { ok: true, email: String(credentials.email).trim().toLowerCase() };
}
