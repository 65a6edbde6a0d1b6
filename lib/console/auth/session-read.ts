import "server-only";
import { createHmac, timingSafeEqual } from "node:crypto";
import { parseCookies } from "better-auth/cookies";
import { eq, sql } from "drizzle-orm";
import { sessions, settings, users } from "@/lib/console/schema";
import { getDatabase } from "@/lib/platform/db";
import { getAuth } from "./server";
import { REQUIRED_ROLES_KEY } from "./two-factor";

/** What one request's session cookie names, read in one query. */
export type SessionRow = {
  expiresAt: Date;
  /** The session's own row id (never its token): the Account page marks "this session" by it. */
  sessionId: string;
  id: string;
  email: string;
  name: string;
  role: string;
  banned: boolean | null;
  timeZone: string | null;
  twoFactorEnabled: boolean | null;
  /** The Users page's choice of roles that need a second factor ("admin"; "" for none); null: the environment's. */
  requiredRoles: string | null;
};

/**
 * The common case of a session read, in one query instead of better-auth's endpoint (two queries, WebCrypto,
 * its request pipeline): the signed cookie checked, then the session and its person read together, on every
 * request, so a sign-out, a ban or a role change counts from the next request on.
 *
 * - `null`: no session cookie at all (better-auth answers null too);
 * - `"ended"`: a cookie this console signed, for a session that no longer exists (signed out, disabled) or
 *   has expired. A page asks better-auth anyway, which clears the cookie or deletes the row; a server action
 *   answers 401 at once (lib/console/bff/action.ts says why);
 * - `"ask-better-auth"`: a signature this check does not accept, or a live session due for its sliding refresh
 *   (`updateAge`: better-auth moves the expiry on and sets the cookie again), so that those stay its own;
 * - the row: a live session, its person as the database has them now (banned or not), and which roles must
 *   have a second factor (read in the same query, since every request asks).
 */
export async function readSessionRow(
  requestHeaders: Headers,
  now: number = Date.now(),
): Promise<SessionRow | null | "ended" | "ask-better-auth"> {
  const cookieHeader = requestHeaders.get("cookie");
  if (!cookieHeader) return null;
  const { secret, cookieName, expiresInMs, updateAgeMs } = await sessionSettings();
  const signed = parseCookies(cookieHeader).get(cookieName);
  if (!signed) return null;
  const token = verifiedToken(signed, secret);
  if (!token) return "ask-better-auth";
  const [row] = await (await sessionByToken()).execute({ token });
  if (!row) return "ended";
  const expiresAt = row.expiresAt.getTime();
  if (expiresAt <= now) return "ended";
  // better-auth's own rule: refreshed once the session is older than updateAge.
  if (expiresAt - expiresInMs + updateAgeMs <= now) return "ask-better-auth";
  return row;
}

/**
 * Whether a Cookie header carries a session cookie signed with this console's secret: a person's, not a
 * stranger's (it may still be expired or signed out; the session read decides that). Cheap, synchronous, no
 * database: the server's front door asks it of every request (scripts/server/server.mjs).
 */
export async function signedSessionCheck(): Promise<(cookieHeader: string) => boolean> {
  const { secret, cookieName } = await sessionSettings();
  return (cookieHeader) => {
    if (!cookieHeader.includes(cookieName)) return false;
    const signed = parseCookies(cookieHeader).get(cookieName);
    return signed !== undefined && verifiedToken(signed, secret) !== null;
  };
}

/**
 * better-auth's signed cookie value (better-call's `signCookieValue`): `<token>.<base64 HMAC-SHA256 of the
 * token with the secret>`. The same check as its `getSignedCookie`, with node:crypto's synchronous HMAC.
 */
export function verifiedToken(signedValue: string, secret: string): string | null {
  const dot = signedValue.lastIndexOf(".");
  if (dot < 1) return null;
  const token = signedValue.slice(0, dot);
  const signature = signedValue.slice(dot + 1);
  if (signature.length !== 44 || !signature.endsWith("=")) return null;
  const expected = createHmac("sha256", secret).update(token).digest();
  const given = Buffer.from(signature, "base64");
  return given.length === expected.length && timingSafeEqual(given, expected) ? token : null;
}

type Settings = { secret: string; cookieName: string; expiresInMs: number; updateAgeMs: number };
const holder = globalThis as typeof globalThis & { __invoiceConsoleSessionSettings?: Promise<Settings> };

/** better-auth's own secret, cookie name (with its `__Secure-` prefix on https) and session ages. */
function sessionSettings(): Promise<Settings> {
  holder.__invoiceConsoleSessionSettings ??= getAuth()
    .then((auth) => auth.$context)
    .then((context) => ({
      secret: context.secret,
      cookieName: context.authCookies.sessionToken.name,
      expiresInMs: context.sessionConfig.expiresIn * 1000,
      updateAgeMs: context.sessionConfig.updateAge * 1000,
    }));
  holder.__invoiceConsoleSessionSettings.catch(() => (holder.__invoiceConsoleSessionSettings = undefined));
  return holder.__invoiceConsoleSessionSettings;
}

/** Prepared once per database: drizzle builds the SQL text once, not on every request. */
const prepared = new WeakMap<object, ReturnType<typeof prepare>>();

function prepare(db: Awaited<ReturnType<typeof getDatabase>>) {
  return db
    .select({
      expiresAt: sessions.expiresAt,
      sessionId: sessions.id,
      id: users.id,
      email: users.email,
      name: users.name,
      role: users.role,
      banned: users.banned,
      timeZone: users.timeZone,
      twoFactorEnabled: users.twoFactorEnabled,
      requiredRoles: settings.value,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(settings, eq(settings.key, REQUIRED_ROLES_KEY))
    .where(eq(sessions.token, sql.placeholder("token")))
    .limit(1)
    .prepare("console_session_by_token");
}

async function sessionByToken() {
  const db = await getDatabase();
  let query = prepared.get(db);
  if (!query) prepared.set(db, (query = prepare(db)));
  return query;
}
