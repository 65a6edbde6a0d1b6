import "server-only";
import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import { parseCookies } from "better-auth/cookies";
import { env } from "@/lib/platform/env";
import { getAuth } from "./server";

/*
 * Known devices (OWASP, "Slow down online guessing attacks with device cookies"): a browser someone has signed in
 * with carries a signed cookie naming them. The limit per address does not refuse that browser for that person,
 * so a stranger's guesses from a shared network cannot lock its people out; the browser's own failures are
 * limited as an account's are per address (./sign-in-limiter.ts).
 */
export const KNOWN_DEVICE_COOKIE = "console_known_device";
const MAX_AGE_SECONDS = 180 * 86_400;

const secret = async () => (await (await getAuth()).$context).secret;
const signature = (payload: string, key: string) => createHmac("sha256", key).update(payload).digest();

/** The device the request's cookie names `email` on, or null: no cookie, someone else's, or not signed by this console. */
export async function knownDevice(headers: Headers, email: string): Promise<string | null> {
  const value = parseCookies(headers.get("cookie") ?? "").get(KNOWN_DEVICE_COOKIE);
  const [device, named, signed] = value?.split(".") ?? [];
  if (!device || !named || !signed) return null;
  const expected = signature(`${device}.${named}`, await secret());
  const given = Buffer.from(signed, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return Buffer.from(named, "base64url").toString() === email ? device : null;
}

/** A new device's cookie value for `email`: its id, the email, and this console's signature of both. */
export async function knownDeviceCookie(email: string): Promise<string> {
  const payload = `${randomUUID()}.${Buffer.from(email).toString("base64url")}`;
  return `${payload}.${signature(payload, await secret()).toString("base64url")}`;
}

/** After a whole sign-in: this browser becomes a known device of `email`. */
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
  jar.set(KNOWN_DEVICE_COOKIE, value, {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    maxAge: MAX_AGE_SECONDS,
    secure: env().publicUrl.startsWith("https:"),
  });
}
