import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { auditTrail } from "@/lib/console/audit";
import { accountLinks, sessions } from "@/lib/console/schema";
import { getDatabase } from "@/lib/platform/db";
import { issueLink, readLink, spendLink } from "./account-links";
import { sessionUser } from "./session";
import { signInWithPassword } from "./sign-in";
import { FREE_FAILURES_PER_ACCOUNT } from "./sign-in-limiter";
import { addUser, setUserDisabled } from "./users";

const ADDRESS = "10.20.0.7";
const GOOD = "plum tractor evening";
let admin: { id: string; email: string };

beforeAll(async () => {
  admin = await addUser(
    await getDatabase(),
    { email: `boss-${randomUUID()}@links.test`, name: "Boss", role: "admin", password: GOOD },
    "system",
  );
});

/** A person added as an admin adds them (no password), and their invitation's token. */
async function invited(role: "viewer" | "support" = "viewer") {
  const db = await getDatabase();
  const email = `new-${randomUUID()}@links.test`;
  const user = await addUser(db, { email, name: "Nora New", role }, admin);
  const link = await issueLink(db, { kind: "invite", userId: user.id, actor: admin, address: ADDRESS });
  return { user, link, token: tokenOf(link.url) };
}
const tokenOf = (url: string) => new URL(url).pathname.split("/").at(-1)!;
const signIn = (email: string, password: string) => signInWithPassword({ email, password }, new Headers({ "x-forwarded-for": ADDRESS }));

describe("invitations", () => {
  it("adds a person nobody can sign in as, and a one-time link whose token is stored only as its hash", async () => {
    const { user, link, token } = await invited();
    expect(link.url).toMatch(/\/invite\/[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(link.expiresAt) - Date.now()).toBeGreaterThan(71 * 3_600_000);
    const rows = await (await getDatabase()).select().from(accountLinks).where(eq(accountLinks.userId, user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0].tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(rows)).not.toContain(token);
    // No password exists yet: the sign-in form's usual answer, which does not say whether the address has an account.
    expect(await signIn(user.email, "")).toMatchObject({ ok: false });
    expect(await signIn(user.email, GOOD)).toMatchObject({ ok: false, error: expect.stringContaining("do not match an account") });
    expect(await readLink(await getDatabase(), "invite", token)).toEqual({ state: "ok", email: user.email, name: "Nora New" });
    // An invitation is not a reset link.
    expect(await readLink(await getDatabase(), "reset", token)).toEqual({ state: "unknown" });
  });

  it("refuses passwords that break a rule, naming it, and keeps the link unused", async () => {
    const db = await getDatabase();
    const { token } = await invited();
    const use = (password: string) => spendLink(db, { kind: "invite", token, password, address: ADDRESS });
    await expect(use("short one")).rejects.toMatchObject({
      status: 422,
      errors: [{ pointer: "/password", detail: "must be at least 12 characters" }],
    });
    await expect(use("Password1234")).rejects.toMatchObject({ errors: [{ detail: expect.stringContaining("most common passwords") }] });
    await expect(use("qwertyuiop123")).rejects.toMatchObject({ status: 422 });
    expect((await readLink(db, "invite", token)).state).toBe("ok");
  });

  it("lets the person choose their password once; the link cannot be used again", async () => {
    const db = await getDatabase();
    const { user, token } = await invited();
    expect(await spendLink(db, { kind: "invite", token, password: GOOD, address: ADDRESS })).toMatchObject({ email: user.email });
    expect(await signIn(user.email, GOOD)).toEqual({ ok: true });
    await expect(spendLink(db, { kind: "invite", token, password: "another fine password", address: ADDRESS })).rejects.toMatchObject({
      status: 410,
      detail: expect.stringContaining("already been used"),
    });
    expect(await signIn(user.email, "another fine password")).toMatchObject({ ok: false });
    expect((await readLink(db, "invite", token)).state).toBe("used");
    // Sign-ins are recorded under the person too (lib/console/auth/sign-in.ts); these are the link's steps.
    const trail = (await auditTrail(db, `user:${user.email}`)).filter((e) => e.action.startsWith("user."));
    expect(trail.map((e) => [e.action, e.actorEmail])).toEqual([
      ["user.created", admin.email],
      ["user.invited", admin.email],
      ["user.invitation_accepted", user.email],
    ]);
    expect(trail[1].detail).toMatchObject({ address: ADDRESS });
    expect(trail[2].detail).toMatchObject({ address: ADDRESS });
  });

  it("sets the password once when the link is used twice at the same moment", async () => {
    const db = await getDatabase();
    const { user, token } = await invited();
    const results = await Promise.allSettled(
      ["first chosen password", "second chosen password"].map((password) =>
        spendLink(db, { kind: "invite", token, password, address: ADDRESS }),
      ),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const won = results[0].status === "fulfilled" ? "first chosen password" : "second chosen password";
    expect(await signIn(user.email, won)).toEqual({ ok: true });
  });

  it("says an expired, unknown, superseded or disabled person's link does not work", async () => {
    const db = await getDatabase();
    const expired = await invited();
    await db
      .update(accountLinks)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(accountLinks.userId, expired.user.id));
    expect((await readLink(db, "invite", expired.token)).state).toBe("expired");
    await expect(spendLink(db, { kind: "invite", token: expired.token, password: GOOD, address: ADDRESS })).rejects.toMatchObject({
      detail: expect.stringContaining("has expired"),
    });

    expect((await readLink(db, "invite", "A".repeat(43))).state).toBe("unknown");
    expect((await readLink(db, "invite", "not a token")).state).toBe("unknown");
    await expect(spendLink(db, { kind: "invite", token: "A".repeat(43), password: GOOD, address: ADDRESS })).rejects.toMatchObject({
      status: 410,
      detail: expect.stringContaining("not valid"),
    });

    const again = await invited();
    const newer = await issueLink(db, { kind: "invite", userId: again.user.id, actor: admin, address: ADDRESS });
    expect((await readLink(db, "invite", again.token)).state).toBe("expired");
    expect((await readLink(db, "invite", tokenOf(newer.url))).state).toBe("ok");

    const leaver = await invited();
    await setUserDisabled(db, leaver.user.email, true, admin);
    expect((await readLink(db, "invite", leaver.token)).state).toBe("disabled");
    await expect(spendLink(db, { kind: "invite", token: leaver.token, password: GOOD, address: ADDRESS })).rejects.toMatchObject({
      detail: expect.stringContaining("disabled"),
    });
    expect(await signIn(leaver.user.email, GOOD)).toMatchObject({ ok: false });
  });
});

describe("password reset links", () => {
  it("set a new password, end every other session of the person, and are recorded", async () => {
    const db = await getDatabase();
    const email = `forgetful-${randomUUID()}@links.test`;
    const user = await addUser(db, { email, name: "Forgetful", role: "support", password: GOOD }, "system");
    const headers = new Headers({ "x-forwarded-for": ADDRESS });
    expect(await signInWithPassword({ email, password: GOOD }, headers)).toEqual({ ok: true });
    expect(await signInWithPassword({ email, password: GOOD }, headers)).toEqual({ ok: true });
    expect(await db.select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(2);

    const link = await issueLink(db, { kind: "reset", userId: user.id, actor: admin, address: ADDRESS });
    expect(link.url).toMatch(/\/reset\/[A-Za-z0-9_-]{43}$/);
    // Issuing changes nothing yet: the old password still works until the link is used.
    expect(await signIn(email, GOOD)).toEqual({ ok: true });
    const result = await spendLink(db, { kind: "reset", token: tokenOf(link.url), password: "a brand new passphrase", address: ADDRESS });
    expect(result.sessionsEnded).toBe(3);
    expect(await db.select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(0);
    expect(await signIn(email, GOOD)).toMatchObject({ ok: false });
    expect(await signIn(email, "a brand new passphrase")).toEqual({ ok: true });
    await expect(
      spendLink(db, { kind: "reset", token: tokenOf(link.url), password: "yet another passphrase", address: ADDRESS }),
    ).rejects.toMatchObject({ detail: expect.stringContaining("already been used") });

    const trail = (await auditTrail(db, `user:${email}`))
      .filter((e) => e.action.startsWith("user."))
      .map((e) => ({ action: e.action, by: e.actorEmail, detail: e.detail }));
    expect(trail).toEqual([
      expect.objectContaining({ action: "user.created" }),
      { action: "user.reset_issued", by: admin.email, detail: expect.objectContaining({ address: ADDRESS }) },
      { action: "user.password_reset", by: email, detail: expect.objectContaining({ address: ADDRESS }) },
      { action: "user.sessions_ended", by: email, detail: expect.objectContaining({ count: 3, address: ADDRESS }) },
    ]);
  });

  it("end the waits a person's guessers (or the person) earned, from every address", async () => {
    const db = await getDatabase();
    const email = `locked-${randomUUID()}@links.test`;
    const user = await addUser(db, { email, name: "Locked", role: "viewer", password: GOOD }, "system");
    for (let i = 0; i < FREE_FAILURES_PER_ACCOUNT; i++) await signIn(email, `guess-${i}-xx`);
    expect(await signIn(email, GOOD)).toMatchObject({ ok: false, error: expect.stringMatching(/^Too many failed attempts/) });
    const link = await issueLink(db, { kind: "reset", userId: user.id, actor: admin, address: ADDRESS });
    await spendLink(db, { kind: "reset", token: tokenOf(link.url), password: "a brand new passphrase", address: ADDRESS });
    expect(await signIn(email, "a brand new passphrase")).toEqual({ ok: true });
  });

  it("work for someone who never accepted their invitation, which then no longer works", async () => {
    const db = await getDatabase();
    const { user, token } = await invited();
    const reset = await issueLink(db, { kind: "reset", userId: user.id, actor: admin, address: ADDRESS });
    expect((await readLink(db, "invite", token)).state).toBe("expired");
    await spendLink(db, { kind: "reset", token: tokenOf(reset.url), password: GOOD, address: ADDRESS });
    expect(await sessionUser(new Headers())).toBeNull();
    expect(await signIn(user.email, GOOD)).toEqual({ ok: true });
  });
});
