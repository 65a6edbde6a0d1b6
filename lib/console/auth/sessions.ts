import "server-only";
import { and, desc, eq, gt, inArray, ne } from "drizzle-orm";
import { recordAudit } from "@/lib/console/audit";
import { auditLog, sessions, users } from "@/lib/console/schema";
import { Problem } from "@/lib/contract/problem";
import { describeUserAgent } from "@/lib/contract/user-agent";
import type { Db } from "@/lib/platform/db";
import { getAuth } from "./server";
import type { SessionUser } from "./session";
import { clientAddress } from "./sign-in";

/**
 * One signed-in session as a page shows it: never its token. `refreshedAt` is the row's updated_at, which
 * better-auth moves only on its hourly refresh (updateAge), so it says "last refreshed", not "last active".
 */
export type SessionSummary = {
  id: string;
  browser: string;
  system: string;
  address: string | null;
  signedInAt: string;
  refreshedAt: string;
  expiresAt: string;
  current: boolean;
};

type Actor = Pick<SessionUser, "id" | "email">;

const columns = {
  id: sessions.id,
  userId: sessions.userId,
  userAgent: sessions.userAgent,
  ipAddress: sessions.ipAddress,
  createdAt: sessions.createdAt,
  updatedAt: sessions.updatedAt,
  expiresAt: sessions.expiresAt,
};
type Row = {
  id: string;
  userId: string;
  userAgent: string | null;
  ipAddress: string | null;
  createdAt: Date;
  updatedAt: Date;
  expiresAt: Date;
};

/** An IPv6 address as people write it ("::1", not better-auth's eight groups of four); any other as it is. */
function compactAddress(address: string): string {
  if (!address.includes(":")) return address;
  try {
    return new URL(`http://[${address}]`).hostname.slice(1, -1);
  } catch {
    return address;
  }
}

function summary(row: Row, currentId: string | null): SessionSummary {
  return {
    id: row.id,
    ...describeUserAgent(row.userAgent),
    address: row.ipAddress ? compactAddress(row.ipAddress) : null,
    signedInAt: row.createdAt.toISOString(),
    refreshedAt: row.updatedAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    current: row.id === currentId,
  };
}

/** A person's live sessions (expired rows are better-auth's to clear), the current one first, then the latest used. */
export async function listSessions(db: Db, user: Pick<SessionUser, "id" | "sessionId">, now = new Date()): Promise<SessionSummary[]> {
  const rows = await db
    .select(columns)
    .from(sessions)
    .where(and(eq(sessions.userId, user.id), gt(sessions.expiresAt, now)))
    .orderBy(desc(sessions.updatedAt), desc(sessions.createdAt));
  const list = rows.map((row) => summary(row, user.sessionId));
  return [...list.filter((s) => s.current), ...list.filter((s) => !s.current)];
}

/** Admins: every person's live sessions, by person id; `currentId` marks the admin's own. */
export async function sessionsByPerson(db: Db, currentId: string, now = new Date()): Promise<Map<string, SessionSummary[]>> {
  const rows = await db
    .select(columns)
    .from(sessions)
    .where(gt(sessions.expiresAt, now))
    .orderBy(desc(sessions.updatedAt), desc(sessions.createdAt));
  const byPerson = new Map<string, SessionSummary[]>();
  for (const row of rows) byPerson.set(row.userId, [...(byPerson.get(row.userId) ?? []), summary(row, currentId)]);
  return byPerson;
}

const gone = () => Problem.of("not_found", { title: "No such session", detail: "That session has ended already, or is not one of yours." });

/**
 * Ends one session: the person's own (`owner`, so another person's id ends nothing and says no more than "no
 * such session"), or anyone's for an admin (`owner` null; the guard has checked users:manage). The session
 * read finds no row from its next request on. Recorded under the session's person, with the client address.
 */
export async function endSession(
  db: Db,
  input: { sessionId: string; owner: string | null; actor: Actor; address: string },
): Promise<{ email: string; browser: string; system: string }> {
  return db.transaction(async (tx) => {
    const mine = input.owner === null ? undefined : eq(sessions.userId, input.owner);
    const [ended] = await tx
      .delete(sessions)
      .where(and(eq(sessions.id, input.sessionId), mine))
      .returning({ userId: sessions.userId, userAgent: sessions.userAgent, ipAddress: sessions.ipAddress });
    if (!ended) throw gone();
    const [person] = await tx.select({ email: users.email }).from(users).where(eq(users.id, ended.userId));
    const described = describeUserAgent(ended.userAgent);
    await recordAudit(tx, {
      actor: input.actor,
      action: "session.ended",
      target: `user:${person.email}`,
      detail: {
        by: input.owner === null ? "admin" : "self",
        session_id: input.sessionId,
        ...described,
        session_address: ended.ipAddress && compactAddress(ended.ipAddress),
        address: input.address,
      },
    });
    return { email: person.email, ...described };
  });
}

/** "Sign out everywhere else": every session of the person but the one this request came with; answers how many. */
export async function endOtherSessions(db: Db, user: Pick<SessionUser, "id" | "email" | "sessionId">, address: string): Promise<number> {
  return db.transaction(async (tx) => {
    const ended = await tx
      .delete(sessions)
      .where(and(eq(sessions.userId, user.id), ne(sessions.id, user.sessionId)))
      .returning({ id: sessions.id });
    if (ended.length > 0) {
      await recordAudit(tx, {
        actor: user,
        action: "session.ended_others",
        target: `user:${user.email}`,
        detail: { count: ended.length, address },
      });
    }
    return ended.length;
  });
}

/**
 * Signing out: better-auth ends the session this request came with (and clears its cookie); the person's
 * leaving is recorded as their arriving is. Without a session there is nothing to end and nothing to record.
 */
export async function signOutSession(db: Db, requestHeaders: Headers, user: Pick<SessionUser, "id" | "email" | "sessionId"> | null) {
  await (await getAuth()).api.signOut({ headers: requestHeaders });
  if (!user) return;
  await recordAudit(db, {
    actor: user,
    action: "sign_out",
    target: `user:${user.email}`,
    detail: { session_id: user.sessionId, address: clientAddress(requestHeaders) },
  });
}

/** One sign-in attempt as the Account page lists it. */
export type SignInEntry = {
  id: string;
  at: string;
  outcome: "Signed in" | "Refused";
  method: string;
  reason: string | null;
  address: string | null;
};

/** What lib/console/auth/sign-in.ts and sign-in-code.ts record under `user:<email>` for each attempt. */
const SIGN_IN_ACTIONS = ["sign_in", "sign_in.failed", "sign_in.code_failed"];
const METHODS: Record<string, string> = {
  password: "Password",
  totp: "Password and authenticator code",
  recovery_code: "Password and recovery code",
  invitation: "Invitation link (password chosen)",
  reset_link: "Reset link (password chosen)",
};
const REASONS: Record<string, string> = {
  password: "wrong email or password",
  disabled: "account disabled",
  invalid: "wrong code",
  replayed: "code used already",
};

/** The person's latest sign-in attempts from the audit log, newest first: signed in or refused, how, from where. */
export async function recentSignIns(db: Db, email: string, limit = 10): Promise<SignInEntry[]> {
  const rows = await db
    .select({ id: auditLog.id, at: auditLog.at, action: auditLog.action, detail: auditLog.detail })
    .from(auditLog)
    .where(and(eq(auditLog.target, `user:${email.toLowerCase()}`), inArray(auditLog.action, SIGN_IN_ACTIONS)))
    .orderBy(desc(auditLog.at))
    .limit(limit);
  return rows.map(({ id, at, action, detail }) => {
    const text = (key: string) => (typeof detail[key] === "string" ? (detail[key] as string) : null);
    const method =
      action === "sign_in.code_failed"
        ? text("method") === "recovery_code"
          ? "Recovery code"
          : "Authenticator code"
        : (METHODS[text("method") ?? "password"] ?? text("method") ?? "Password");
    const reason = action === "sign_in" ? null : (REASONS[text("reason") ?? ""] ?? text("reason"));
    return { id, at: at.toISOString(), outcome: action === "sign_in" ? "Signed in" : "Refused", method, reason, address: text("address") };
  });
}
