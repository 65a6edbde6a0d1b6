import "server-only";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { isRole, type Role } from "@/lib/contract/roles";
import { getDatabase } from "@/lib/platform/db";
import { REQUESTED_PATH_HEADER } from "./constants";
import { getAuth } from "./server";
import { readSessionRow } from "./session-read";
import { requiredRoles, requiredRolesFrom } from "./two-factor";

/** Where a person whose role needs a second factor, and who has none yet, sets one up. */
export const SECOND_FACTOR_SETUP_PATH = "/two-factor";

export type SessionUser = {
  id: string;
  email: string;
  name: string;
  role: Role;
  /** Their own time zone, instead of the business zone (lib/contract/time-zone.ts); null: the business zone. */
  timeZone: string | null;
  /**
   * Their role needs a second factor (TWO_FACTOR_REQUIRED_ROLES or the Users page) and they have none yet: every
   * guard refuses them (lib/console/bff) until they have set one up at SECOND_FACTOR_SETUP_PATH.
   */
  needsSecondFactor: boolean;
  /** The id of the session row this request came with (never its token): "this session" on the Account page. */
  sessionId: string;
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
  const read =
    typeof row === "string"
      ? await (await getAuth()).api.getSession({ headers: requestHeaders })
      : row && { user: row, sessionId: row.sessionId };
  if (!read || read.user.banned) return null;
  const { user } = read;
  const sessionId = "session" in read ? read.session.id : read.sessionId;
  const { id, email, name } = user;
  // A role this version does not know grants nothing beyond reading.
  const role = isRole(user.role) ? user.role : "viewer";
  const timeZone = "timeZone" in user && typeof user.timeZone === "string" ? user.timeZone : null;
  const required = "requiredRoles" in user ? requiredRolesFrom(user.requiredRoles) : (await requiredRoles(await getDatabase())).roles;
  const needsSecondFactor = required.includes(role) && !user.twoFactorEnabled;
  return { id, email, name, role, timeZone, needsSecondFactor, sessionId };
}

/** For server components and actions: the current person, read once per request. */
export const currentUser = cache(async () => sessionUser(await headers()));

/**
 * Pages: the current person, or off to sign in and back to where they were going; someone who must set up a
 * second factor first is sent to do that (only its own page passes `settingUpSecondFactor`).
 */
export async function requireUser({ settingUpSecondFactor = false } = {}): Promise<SessionUser> {
  const user = await currentUser();
  if (!user) {
    const requested = (await headers()).get(REQUESTED_PATH_HEADER) ?? "/overview";
    redirect(`/login?next=${encodeURIComponent(requested)}`);
  }
  if (user.needsSecondFactor && !settingUpSecondFactor) redirect(SECOND_FACTOR_SETUP_PATH);
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
