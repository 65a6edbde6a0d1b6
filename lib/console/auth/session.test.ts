import { randomUUID } from "node:crypto";
import { makeSignature } from "better-auth/crypto";
import { eq } from "drizzle-orm";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { sessions, users } from "@/lib/console/schema";
import { getDatabase } from "@/lib/platform/db";
import { getAuth, SESSION_TTL_SECONDS } from "./server";
import { sessionUser } from "./session";
import { readSessionRow, verifiedToken } from "./session-read";
import { signedInCookie } from "./signed-in-cookie";
import { addUser, setUserRole } from "./users";

const tokenOf = (cookie: string) => decodeURIComponent(cookie.split("session_token=")[1].split(";")[0]).split(".")[0];
const read = (cookie: string) => sessionUser(new Headers({ cookie }));
const HOUR = 60 * 60 * 1000;

let admin: { id: string; email: string };
beforeAll(async () => {
  admin = await addUser(
    await getDatabase(),
    { email: `boss-${randomUUID()}@session.test`, name: "Boss", role: "admin", password: "correct horse battery" },
    "system",
  );
});

describe("the session read (one query for a live session, better-auth for the rest)", () => {
  it("reads a live session and its person in one step, with nothing left for better-auth to do", async () => {
    const cookie = await signedInCookie("finance");
    expect(await readSessionRow(new Headers({ cookie }))).toMatchObject({ role: "finance", banned: false });
    expect(await read(cookie)).toMatchObject({ role: "finance", name: "Test finance" });
  });

  it("counts a role change from the very next request", async () => {
    const cookie = await signedInCookie("viewer");
    const { email } = (await read(cookie))!;
    expect((await read(cookie))!.role).toBe("viewer");
    await setUserRole(await getDatabase(), email, "support", admin);
    expect((await read(cookie))!.role).toBe("support");
  });

  it("opens nothing for a person disabled behind the console's back (the session row survives)", async () => {
    const cookie = await signedInCookie("admin");
    const db = await getDatabase();
    const [{ userId }] = await db
      .select({ userId: sessions.userId })
      .from(sessions)
      .where(eq(sessions.token, tokenOf(cookie)));
    await db.update(users).set({ banned: true }).where(eq(users.id, userId));
    expect(await read(cookie)).toBeNull();
  });

  it("opens nothing once signed out", async () => {
    const cookie = await signedInCookie("support");
    expect(await read(cookie)).not.toBeNull();
    await (await getAuth()).api.signOut({ headers: new Headers({ cookie }) });
    expect(await readSessionRow(new Headers({ cookie }))).toBe("ended");
    expect(await read(cookie)).toBeNull();
  });

  it("leaves an expired session to better-auth, which refuses it and deletes it", async () => {
    const cookie = await signedInCookie("viewer");
    const db = await getDatabase();
    await db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.token, tokenOf(cookie)));
    expect(await readSessionRow(new Headers({ cookie }))).toBe("ended");
    // A server action's read answers it at once and leaves the row (and the cookie) alone.
    expect(await sessionUser(new Headers({ cookie }), { endedIsNull: true })).toBeNull();
    expect(
      await db
        .select()
        .from(sessions)
        .where(eq(sessions.token, tokenOf(cookie))),
    ).toHaveLength(1);
    expect(await read(cookie)).toBeNull();
    expect(
      await db
        .select()
        .from(sessions)
        .where(eq(sessions.token, tokenOf(cookie))),
    ).toEqual([]);
  });

  it("leaves a session older than updateAge to better-auth, which moves its expiry on", async () => {
    const cookie = await signedInCookie("viewer");
    const db = await getDatabase();
    // Signed in two hours ago: past the one-hour updateAge, well within the twelve-hour lifetime.
    const stale = new Date(Date.now() + SESSION_TTL_SECONDS * 1000 - 2 * HOUR);
    await db
      .update(sessions)
      .set({ expiresAt: stale })
      .where(eq(sessions.token, tokenOf(cookie)));
    expect(await readSessionRow(new Headers({ cookie }))).toBe("ask-better-auth");
    expect(await read(cookie)).toMatchObject({ role: "viewer" });
    const [{ expiresAt }] = await db
      .select({ expiresAt: sessions.expiresAt })
      .from(sessions)
      .where(eq(sessions.token, tokenOf(cookie)));
    expect(expiresAt.getTime()).toBeGreaterThan(stale.getTime() + HOUR);
    expect(await readSessionRow(new Headers({ cookie }))).toMatchObject({ role: "viewer" });
  });

  it("opens nothing for a cookie whose token or signature was changed, or that has none", async () => {
    const cookie = await signedInCookie("admin");
    const [name, value] = cookie.split("=");
    const [token, signature] = decodeURIComponent(value).split(".");
    const otherToken = `${token.slice(0, -1)}${token.endsWith("a") ? "b" : "a"}`;
    for (const forged of [
      `${otherToken}.${signature}`,
      `${token}.${signature.replace(/^./, (c) => (c === "A" ? "B" : "A"))}`,
      token,
      `${token}.`,
    ]) {
      const headers = new Headers({ cookie: `${name}=${encodeURIComponent(forged)}` });
      expect(await readSessionRow(headers)).toBe("ask-better-auth");
      expect(await sessionUser(headers)).toBeNull();
    }
    expect(await readSessionRow(new Headers({ cookie: "theme=dark" }))).toBeNull();
    expect(await sessionUser(new Headers())).toBeNull();
  });
});

describe("verifiedToken", () => {
  it("accepts exactly what better-auth signs with the same secret", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ minLength: 1, maxLength: 64 }).filter((s) => !s.includes(".")),
        fc.string({ minLength: 8, maxLength: 64 }),
        async (token, secret) => {
          const signature = await makeSignature(token, secret);
          expect(verifiedToken(`${token}.${signature}`, secret)).toBe(token);
          expect(verifiedToken(`${token}.${signature}`, `${secret}x`)).toBeNull();
        },
      ),
      { numRuns: 50 },
    );
  });
});
