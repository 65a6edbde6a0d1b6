import "server-only";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { isRole, type Role } from "@/lib/contract/roles";
import { REQUESTED_PATH_HEADER } from "./constants";
import { getAuth } from "./server";
import { readSessionRow } from "./session-read";

export type SessionUser = {
  id: string;
  email: string;
  name: string;
  role: Role;
  /** Their own time zone, instead of the business zone (lib/contract/time-zone.ts); null: the business zone. */
  timeZone: string | null;
};

/**
 * The signed-in person behind these request headers, or null (no session, expired, banned). Read from the
 * database on every request, so a sign-out, a ban or a role change counts at once. A live session takes one
 * query (./session-read.ts); anything else (no such session, expired, due for its refresh) is better-auth's,
 * except that `endedIsNull` answers an ended session (no such session, expired) null without asking it (a
 * server action: lib/console/bff/action.ts).
 */
export async function sessionUser(requestHeaders: Headers, { endedIsNull = false } = {}): Promise<SessionUser | null> {
  const row = await readSessionRow(requestHeaders);
  if (row === "ended" && endedIsNull) return null;
  const user =
    row === "ask-better-auth" || row === "ended"
      ? ((await (await getAuth()).api.getSession({ headers: requestHeaders }))?.user ?? null)
      : row;
  if (!user || user.banned) return null;
  const { id, email, name, role } = user;
  const timeZone = "timeZone" in user && typeof user.timeZone === "string" ? user.timeZone : null;
  // A role this version does not know grants nothing beyond reading.
  return { id, email, name, role: isRole(role) ? role : "viewer", timeZone };
}

/** For server components and actions: the current person, read once per request. */
export const currentUser = cache(async () => sessionUser(await headers()));

/** Pages: the current person, or off to sign in and back to where they were going. */
export async function requireUser(): Promise<SessionUser> {
  const user = await currentUser();
  if (!user) {
    const requested = (await headers()).get(REQUESTED_PATH_HEADER) ?? "/overview";
    redirect(`/login?next=${encodeURIComponent(requested)}`);
  }
  return user;
}

/**
 * Only a path on this site: `next` must never send someone elsewhere after sign-in. Resolved the way a
 * browser would (which drops tabs and newlines, so "/\t/evil.example" is another site), then kept only if it
 * stayed on our origin and its path cannot be read as another host: "/.//evil.example" resolves to the path
 * "//evil.example", which a Location header sends to evil.example.
 */
export function safeNextPath(value: unknown): string {
  const fallback = "/overview";
  if (typeof value !== "string" || !value.startsWith("/") || /[\u0000-\u001f\u007f\\]/.test(value)) return fallback;
  const base = "http://console.invalid";
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    return fallback;
  }
  if (url.origin !== base || url.pathname.startsWith("//") || url.pathname.startsWith("/login")) return fallback;
  return url.pathname + url.search + url.hash;
}
