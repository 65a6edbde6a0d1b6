import "server-only";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { isRole, type Role } from "./roles";
import { getAuth } from "./server";

export type SessionUser = { id: string; email: string; name: string; role: Role };

/** Header proxy.ts sets on every page request: the path and query the person asked for. */
export const REQUESTED_PATH_HEADER = "x-invoice-console-path";

/** The signed-in person behind these request headers, or null (no session, expired, banned). */
export async function sessionUser(requestHeaders: Headers): Promise<SessionUser | null> {
  const auth = await getAuth();
  const session = await auth.api.getSession({ headers: requestHeaders });
  if (!session || session.user.banned) return null;
  const { id, email, name, role } = session.user;
  // A role this version does not know grants nothing beyond reading.
  return { id, email, name, role: isRole(role) ? role : "viewer" };
}

/** For server components and actions: the current person, read once per request. */
export const currentUser = cache(async () => sessionUser(await headers()));

/** Pages: the current person, or off to sign in and back to where they were going. */
export async function requireUser(): Promise<SessionUser> {
  const user = await currentUser();
  if (!user) {
    const requested = (await headers()).get(REQUESTED_PATH_HEADER) ?? "/invoices";
    redirect(`/login?next=${encodeURIComponent(requested)}`);
  }
  return user;
}

/** Only same-site relative paths: `next` must never send someone to another site after sign-in. */
export function safeNextPath(value: unknown): string {
  if (typeof value !== "string" || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) {
    return "/invoices";
  }
  return value.startsWith("/login") ? "/invoices" : value;
}
