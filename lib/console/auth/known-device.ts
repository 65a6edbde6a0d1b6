import "server-only";
import { randomUUID } from "node:crypto";
import { parseCookies } from "better-auth/cookies";
import { and, eq } from "drizzle-orm";
import { accounts, users } from "@/lib/console/schema";
import { getDatabase } from "@/lib/platform/db";
import { env } from "@/lib/platform/env";
import { signedBy, signValue } from "./signed-value";

/*
 * Known devices (OWASP, "Slow down online guessing attacks with device cookies"): a browser someone has signed in
 * with carries a signed cookie naming them. The limit per address does not refuse that browser for that person,
 * so a stranger's guesses from a shared network cannot lock its people out; the browser's own failures are
 * limited as an account's are per address (./sign-in-limiter.ts). Each whole sign-in issues a new one; a new
 * password (a reset or a change) forgets every device issued before it: it is what someone does when another may
 * have been in.
 */
const NAME = "console_known_device";
const MAX_AGE_SECONDS = 180 * 86_400;
const PURPOSE = "known-device/v1";
const VALUE = /^v1\.([0-9a-f-]{36})\.(\d{1,12})\.([A-Za-z0-9_-]{1,400})\.([A-Za-z0-9_-]{43})$/;

/** Over https the cookie is `__Host-`: only this host, over https, may set it. */
export const knownDeviceCookieName = () => (secure() ? `__Host-${NAME}` : NAME);
const secure = () => env().publicUrl.startsWith("https:");

/** The device the request's cookie names `email` on, or null: none, someone else's, too old, or not this console's. */
export async function knownDevice(headers: Headers, email: string): Promise<string | null> {
  const match = VALUE.exec(parseCookies(headers.get("cookie") ?? "").get(knownDeviceCookieName()) ?? "");
  if (!match) return null;
  const [, device, issued, named, signed] = match;
  if (!(await signedBy(PURPOSE, `v1.${device}.${issued}.${named}`, signed))) return null;
  // The browser forgets it after MAX_AGE; a copy kept elsewhere is refused here too.
  if (Date.now() / 1000 - Number(issued) > MAX_AGE_SECONDS) return null;
  if (Buffer.from(named, "base64url").toString().toLowerCase() !== email.toLowerCase()) return null;
  return Number(issued) >= (await passwordSetAt(email)) ? device : null;
}

/** When `email`'s password was last set, in whole seconds (0: never, or no such person). */
async function passwordSetAt(email: string): Promise<number> {
  const [row] = await (await getDatabase())
    .select({ at: accounts.updatedAt })
    .from(accounts)
    .innerJoin(users, eq(users.id, accounts.userId))
    .where(and(eq(users.email, email.toLowerCase()), eq(accounts.providerId, "credential")));
  return row ? Math.floor(row.at.getTime() / 1000) : 0;
}

/** A new device's cookie value for `email`: its id, when it was issued, the email, and this console's signature. */
export async function knownDeviceCookie(email: string, issuedAt = Date.now()): Promise<string> {
  const payload = `v1.${randomUUID()}.${Math.floor(issuedAt / 1000)}.${Buffer.from(email.toLowerCase()).toString("base64url")}`;
  return `${payload}.${await signValue(PURPOSE, payload)}`;
}

/** After a whole sign-in: this browser becomes a known device of `email` (the last person to sign in on it). */
export async function rememberDevice(email: string): Promise<void> {
  const value = await knownDeviceCookie(email);
  let jar: Awaited<ReturnType<typeof import("next/headers").cookies>>;
  try {
    jar = await (await import("next/headers")).cookies();
  } catch (error) {
    // Called outside a request (a test signing in directly), as better-auth's nextCookies allows: nothing to set.
    if (error instanceof Error && error.message.startsWith("`cookies` was called outside a request scope")) return;
    throw error;
  }
  jar.set(knownDeviceCookieName(), value, { httpOnly: true, sameSite: "lax", path: "/", maxAge: MAX_AGE_SECONDS, secure: secure() });
}
