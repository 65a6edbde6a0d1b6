import { eq, like } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { auditTrail } from "@/lib/console/audit";
import { passkeys, sessions, signInFailures, users, verifications } from "@/lib/console/schema";
import { getDatabase } from "@/lib/platform/db";
import { env } from "@/lib/platform/env";
import { softwareAuthenticator } from "@/test/software-authenticator";

// Server actions and pages read the request through next/headers; each call here names its cookie.
let requestCookie = "";
vi.mock("next/headers", () => ({
  headers: async () => new Headers(requestCookie ? { cookie: requestCookie, "x-forwarded-for": "10.9.0.2" } : {}),
  cookies: async () => ({ get: () => undefined, getAll: () => [], set: () => undefined, delete: () => undefined, has: () => false }),
}));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

const PASSWORD = "correct horse battery";
const ADDRESS = "10.9.0.2";
const cookieOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");

const modules = () => Promise.all([import("./passkeys"), import("./server"), import("./session"), import("./users")]);

/** A signed-in person and the authenticator they will add a passkey with. */
async function person(role: "viewer" | "admin" = "viewer") {
  const [, { getAuth }, { sessionUser }, { addUser }] = await modules();
  const email = `${role}-${crypto.randomUUID()}@passkey.test`;
  const db = await getDatabase();
  await addUser(db, { email, name: "Pat", role, password: PASSWORD }, "system");
  const cookie = cookieOf(await (await getAuth()).api.signInEmail({ body: { email, password: PASSWORD }, asResponse: true }));
  const user = (await sessionUser(new Headers({ cookie })))!;
  return { email, cookie, user, authenticator: softwareAuthenticator(env().publicUrl) };
}

async function withPasskey(role: "viewer" | "admin" = "viewer") {
  const [pk] = await modules();
  const p = await person(role);
  const db = await getDatabase();
  const { challengeId, options } = await pk.registrationOptions(db, p.user);
  const response = pk.parseCredential<never>(p.authenticator.register(options))!;
  const added = await pk.addPasskey(db, p.user, { challengeId, response, name: "Laptop" }, ADDRESS);
  return { ...p, passkeyId: added.id };
}

/** The failed sign-ins the limiter counts against an address now. */
async function failuresAt(address: string) {
  const [row] = await (await getDatabase())
    .select()
    .from(signInFailures)
    .where(eq(signInFailures.key, `address:${address}`));
  return row?.failures;
}

async function sessionCount(userId: string) {
  return (await (await getDatabase()).select().from(sessions).where(eq(sessions.userId, userId))).length;
}

async function passkeySignIn(answer: (options: { challenge: string }) => string, forUserId: string | null = null, cookie = "") {
  const [pk] = await modules();
  const { challengeId, options } = await pk.authenticationOptions(await getDatabase(), forUserId);
  const response = pk.parseCredential<never>(answer(options))!;
  const headers = new Headers({ "x-forwarded-for": ADDRESS, ...(cookie ? { cookie } : {}) });
  return { result: await pk.signInWithPasskey({ challengeId, response }, headers), challengeId, response, headers };
}

describe("adding a passkey", () => {
  it("keeps the public key under its name, turns the second step on, and is audited", async () => {
    const p = await withPasskey();
    const db = await getDatabase();
    const [pk] = await modules();
    expect(await pk.listPasskeys(db, p.user.id)).toEqual([
      { id: p.passkeyId, name: "Laptop", createdAt: expect.any(String), lastUsedAt: null, synced: false },
    ]);
    const [row] = await db.select({ flag: users.twoFactorEnabled }).from(users).where(eq(users.id, p.user.id));
    expect(row.flag).toBe(true);
    const added = (await auditTrail(db, `user:${p.email}`)).find((e) => e.action === "two_factor.added");
    expect(added?.detail).toMatchObject({ method: "passkey", name: "Laptop", address: ADDRESS });
  });

  it("answers each challenge once, and only for the person it was made for", async () => {
    const [pk] = await modules();
    const db = await getDatabase();
    const a = await person();
    const b = await person();
    const { challengeId, options } = await pk.registrationOptions(db, a.user);
    const response = pk.parseCredential<never>(a.authenticator.register(options))!;
    await expect(pk.addPasskey(db, b.user, { challengeId, response, name: "Stolen" }, ADDRESS)).rejects.toMatchObject({
      detail: expect.stringMatching(/ran out of time/),
    });
    // The challenge is spent by the refused attempt, too.
    await expect(pk.addPasskey(db, a.user, { challengeId, response, name: "Mine" }, ADDRESS)).rejects.toMatchObject({
      detail: expect.stringMatching(/ran out of time/),
    });
    expect(await pk.listPasskeys(db, a.user.id)).toEqual([]);
  });

  it("refuses an answer signed for another challenge", async () => {
    const [pk] = await modules();
    const db = await getDatabase();
    const p = await person();
    const { challengeId } = await pk.registrationOptions(db, p.user);
    const response = pk.parseCredential<never>(p.authenticator.register({ challenge: "bm90LXRoZS1jaGFsbGVuZ2U" }))!;
    await expect(pk.addPasskey(db, p.user, { challengeId, response, name: "Laptop" }, ADDRESS)).rejects.toMatchObject({
      detail: expect.stringMatching(/could not be checked/),
    });
  });

  it("asks for the password first, through the action", async () => {
    const p = await person();
    const { passkeyRegistrationAction } = await import("./passkey-actions");
    requestCookie = p.cookie;
    const wrong = new FormData();
    wrong.set("password", "not the password");
    wrong.set("name", "Laptop");
    expect(await passkeyRegistrationAction(wrong)).toMatchObject({ fieldErrors: { password: "That password is not right." } });
    const badName = new FormData();
    badName.set("password", PASSWORD);
    badName.set("name", "Lap\u0007top");
    expect(await passkeyRegistrationAction(badName)).toMatchObject({ fieldErrors: { name: expect.stringMatching(/letters/) } });
    const right = new FormData();
    right.set("password", PASSWORD);
    right.set("name", "Laptop");
    expect(await passkeyRegistrationAction(right)).toMatchObject({
      challengeId: expect.any(String),
      options: { rp: { name: "Invoice Console" } },
    });
    requestCookie = "";
  });

  it("counts a wrong password as a failed sign-in: after the free ones even the right one waits, and each is recorded", async () => {
    const p = await person();
    const { passkeyRegistrationAction } = await import("./passkey-actions");
    const { FREE_FAILURES_PER_ACCOUNT } = await import("./sign-in-limiter");
    requestCookie = p.cookie;
    const attempt = (password: string) => {
      const form = new FormData();
      form.set("password", password);
      form.set("name", "Laptop");
      return passkeyRegistrationAction(form);
    };
    for (let i = 0; i < FREE_FAILURES_PER_ACCOUNT; i++) {
      expect(await attempt(`guess-${i}-xx`)).toMatchObject({ fieldErrors: { password: "That password is not right." } });
    }
    expect(await attempt(PASSWORD)).toMatchObject({ error: expect.stringMatching(/^Too many failed attempts for this account/) });
    requestCookie = "";
    const failed = (await auditTrail(await getDatabase(), `user:${p.email}`)).filter((e) => e.action === "user.password_change_failed");
    expect(failed).toHaveLength(FREE_FAILURES_PER_ACCOUNT);
    expect(failed[0]).toMatchObject({ actorEmail: p.email, detail: { address: ADDRESS, for: "passkey" } });
  });
});

describe("signing in with a passkey", () => {
  let p: Awaited<ReturnType<typeof withPasskey>>;
  beforeAll(async () => {
    p = await withPasskey();
  });

  it("signs the person in without the password, once per challenge", async () => {
    const before = await sessionCount(p.user.id);
    const { result, challengeId, response, headers } = await passkeySignIn(p.authenticator.authenticate);
    expect(result).toEqual({ ok: true, email: p.email });
    expect(await sessionCount(p.user.id)).toBe(before + 1);
    const [pk] = await modules();
    const [entry] = await pk.listPasskeys(await getDatabase(), p.user.id);
    expect(entry.lastUsedAt).not.toBeNull();
    const signedIn = (await auditTrail(await getDatabase(), `user:${p.email}`)).find((e) => e.action === "sign_in");
    expect(signedIn?.detail).toMatchObject({ method: "passkey", passkey: "Laptop", address: ADDRESS });
    // The same signed answer again: its challenge is gone.
    expect(await pk.signInWithPasskey({ challengeId, response }, headers)).toEqual({
      ok: false,
      error: expect.stringMatching(/ran out of time/),
    });
    expect(await sessionCount(p.user.id)).toBe(before + 1);
  });

  it("gives the address no attempt back: signing in with one's own passkey never erases others' failures there", async () => {
    const [pk] = await modules();
    const { reserveSignInAttempt } = await import("./sign-in-limiter");
    const db = await getDatabase();
    const address = "10.9.7.7";
    // Failed guesses at other accounts from this address (a spray), then the sprayer's own passkey sign-ins.
    for (let i = 0; i < 6; i++) expect(await reserveSignInAttempt(db, `sprayed-${i}@passkey.test`, address)).toBeNull();
    expect(await failuresAt(address)).toBe(6);
    for (let i = 0; i < 3; i++) {
      const { challengeId, options } = await pk.authenticationOptions(db, null);
      const response = pk.parseCredential<never>(p.authenticator.authenticate(options))!;
      expect(await pk.signInWithPasskey({ challengeId, response }, new Headers({ "x-forwarded-for": address }))).toMatchObject({
        ok: true,
      });
    }
    expect(await failuresAt(address)).toBe(6);
  });

  it("a flood of sign-in starts stores nothing and locks nobody out; a forged, altered or misused challenge is refused", async () => {
    const [pk] = await modules();
    const db = await getDatabase();
    const stored = async () => (await db.select().from(verifications).where(like(verifications.identifier, "passkey%"))).length;
    const before = await stored();
    // More than any cap a table of open challenges could allow.
    for (let i = 0; i < 2_500; i++) await pk.authenticationOptions(db, null);
    expect(await stored()).toBe(before);
    expect((await passkeySignIn(p.authenticator.authenticate)).result).toMatchObject({ ok: true });

    const { challengeId, options } = await pk.authenticationOptions(db, null);
    const response = pk.parseCredential<never>(p.authenticator.authenticate(options))!;
    const headers = new Headers({ "x-forwarded-for": ADDRESS });
    const [payload, signature] = challengeId.split(".");
    const altered = JSON.parse(Buffer.from(payload, "base64url").toString());
    const reSealed = `${Buffer.from(JSON.stringify({ ...altered, until: altered.until + 86_400_000 })).toString("base64url")}.${signature}`;
    const registered = (await pk.registrationOptions(db, p.user)).challengeId;
    // Spellings that decode to the same signature (padding, the last character's spare bits) are other ids, refused.
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const spareBits = `${signature.slice(0, -1)}${alphabet[alphabet.indexOf(signature.at(-1)!) ^ 1]}`;
    expect(Buffer.from(spareBits, "base64url")).toEqual(Buffer.from(signature, "base64url"));
    const variants = [`${challengeId}=`, `${payload}.${spareBits}`, ` ${challengeId}`];
    for (const forged of [
      ...variants,
      reSealed,
      `${payload}.${"A".repeat(43)}`,
      payload,
      `${challengeId}.x`,
      registered,
      "not-a-challenge",
    ]) {
      expect(await pk.signInWithPasskey({ challengeId: forged, response }, headers)).toMatchObject({ ok: false });
    }
    // The genuine one still works, once, under any spelling.
    expect(await pk.signInWithPasskey({ challengeId, response }, headers)).toMatchObject({ ok: true });
    expect(await pk.signInWithPasskey({ challengeId, response }, headers)).toMatchObject({ ok: false });
    for (const replayed of variants)
      expect(await pk.signInWithPasskey({ challengeId: replayed, response }, headers)).toMatchObject({ ok: false });
  });

  it("as the second step of a password sign-in, gives back the attempt the password counted against the address", async () => {
    const [pk] = await modules();
    const { reserveSignInAttempt } = await import("./sign-in-limiter");
    const db = await getDatabase();
    const address = "10.9.7.8";
    // The password step counts its attempt until the second step is done.
    expect(await reserveSignInAttempt(db, p.email, address)).toBeNull();
    expect(await failuresAt(address)).toBe(1);
    const { challengeId, options } = await pk.authenticationOptions(db, p.user.id);
    const response = pk.parseCredential<never>(p.authenticator.authenticate(options))!;
    expect(await pk.signInWithPasskey({ challengeId, response }, new Headers({ "x-forwarded-for": address }))).toMatchObject({ ok: true });
    expect(await failuresAt(address)).toBe(0);
  });

  it("refuses a signature that does not match the stored key", async () => {
    const forged = softwareAuthenticator(env().publicUrl);
    const { result } = await passkeySignIn((options) => {
      // The right credential id, signed with another key.
      const answer = JSON.parse(forged.authenticate(options));
      return JSON.stringify({ ...answer, id: p.authenticator.credentialId, rawId: p.authenticator.credentialId });
    });
    expect(result).toEqual({ ok: false, error: expect.stringMatching(/could not be checked/) });
  });

  it("refuses a passkey nobody added", async () => {
    const { result } = await passkeySignIn(softwareAuthenticator(env().publicUrl).authenticate);
    expect(result).toEqual({ ok: false, error: expect.stringMatching(/not one this console knows/) });
  });

  it("after a password, accepts only that person's passkey", async () => {
    const other = await withPasskey();
    const { result } = await passkeySignIn(other.authenticator.authenticate, p.user.id);
    expect(result).toEqual({ ok: false, error: expect.stringMatching(/not one this console knows/) });
  });

  it("refuses a disabled account", async () => {
    const q = await withPasskey();
    const db = await getDatabase();
    await db.update(users).set({ banned: true }).where(eq(users.id, q.user.id));
    const before = await sessionCount(q.user.id);
    const { result } = await passkeySignIn(q.authenticator.authenticate);
    expect(result).toEqual({ ok: false, error: "This account is disabled. Ask an admin about it." });
    expect(await sessionCount(q.user.id)).toBe(before);
  });

  it("is the second step after the password of a person with a passkey only", async () => {
    const q = await withPasskey();
    const { signInWithPassword } = await import("./sign-in");
    const { getAuth } = await import("./server");
    expect(await signInWithPassword({ email: q.email, password: PASSWORD }, new Headers({ "x-forwarded-for": ADDRESS }))).toEqual({
      ok: false,
      step: "code",
      factors: { app: false, passkey: true },
    });
    const response = await (await getAuth()).api.signInEmail({ body: { email: q.email, password: PASSWORD }, asResponse: true });
    const pendingCookie = cookieOf(response);
    const { pendingSignIn } = await import("./sign-in-code");
    expect(await pendingSignIn(new Headers({ cookie: pendingCookie }))).toMatchObject({ email: q.email });
    const before = await sessionCount(q.user.id);
    const { result } = await passkeySignIn(q.authenticator.authenticate, q.user.id, pendingCookie);
    expect(result).toEqual({ ok: true, email: q.email });
    expect(await sessionCount(q.user.id)).toBe(before + 1);
    // The pending sign-in was settled by the passkey: its code step is gone.
    expect(await pendingSignIn(new Headers({ cookie: pendingCookie }))).toBeNull();
  });
});

describe("removing a passkey", () => {
  it("removes one's own only, and the second step goes with the last factor", async () => {
    const [pk] = await modules();
    const db = await getDatabase();
    const p = await withPasskey();
    const stranger = await person();
    await expect(pk.removePasskey(db, stranger.user, p.passkeyId, ADDRESS)).rejects.toMatchObject({ status: 404 });
    expect(await pk.removePasskey(db, p.user, p.passkeyId, ADDRESS)).toBe("Laptop");
    expect(await db.select().from(passkeys).where(eq(passkeys.userId, p.user.id))).toEqual([]);
    const [row] = await db.select({ flag: users.twoFactorEnabled }).from(users).where(eq(users.id, p.user.id));
    expect(row.flag).toBe(false);
    const removed = (await auditTrail(db, `user:${p.email}`)).find((e) => e.action === "two_factor.removed");
    expect(removed?.detail).toMatchObject({ method: "passkey", name: "Laptop" });
  });

  it("takes the password, through the action: a session left open cannot strip the factor away", async () => {
    const p = await withPasskey();
    const { removePasskeyAction } = await import("./passkey-actions");
    const remove = (password: string) => {
      const form = new FormData();
      form.set("id", p.passkeyId);
      form.set("password", password);
      return removePasskeyAction(form);
    };
    requestCookie = p.cookie;
    expect(await remove("")).toMatchObject({ fieldErrors: { password: "Enter your password." } });
    expect(await remove("not the password")).toMatchObject({ fieldErrors: { password: "That password is not right." } });
    expect(await (await getDatabase()).select().from(passkeys).where(eq(passkeys.userId, p.user.id))).toHaveLength(1);
    expect(await remove(PASSWORD)).toMatchObject({ ok: "Passkey “Laptop” removed." });
    requestCookie = "";
    const failed = (await auditTrail(await getDatabase(), `user:${p.email}`)).find((e) => e.action === "user.password_change_failed");
    expect(failed?.detail).toMatchObject({ for: "passkey_removal" });
  });
});

describe("taking an account back with its reset link", () => {
  it("an admin's reset link for an account someone else used removes its passkeys and ends its sessions now; a plain one leaves them", async () => {
    const db = await getDatabase();
    const admin = await person("admin");
    const { issueResetLinkAction } = await import("@/lib/console/users/actions");
    const issue = async (email: string, takeBack: boolean) => {
      const form = new FormData();
      form.set("email", email);
      if (takeBack) form.set("take_back", "on");
      requestCookie = admin.cookie;
      try {
        return await issueResetLinkAction(form);
      } finally {
        requestCookie = "";
      }
    };

    // A plain reset: the passkey still signs in (the person forgot a password, not lost the account).
    const kept = await withPasskey();
    expect(await issue(kept.email, false)).toMatchObject({ ok: `A password reset link for ${kept.email}.`, link: expect.anything() });
    expect((await issue(kept.email, false)) as object).not.toHaveProperty("takenBack");
    expect((await passkeySignIn(kept.authenticator.authenticate)).result).toMatchObject({ ok: true });

    // Taken back: the passkey an intruder may hold no longer signs in, and their session is over at once.
    const used = await withPasskey();
    expect(await sessionCount(used.user.id)).toBe(1);
    expect(await issue(used.email, true)).toMatchObject({
      takenBack: "Their password no longer works. Removed 1 passkey; 1 session ended.",
      link: expect.anything(),
    });
    // Nor does the password it had: whoever knew it cannot sign in and set up a factor of their own.
    const [, { getAuth }] = await modules();
    await expect((await getAuth()).api.signInEmail({ body: { email: used.email, password: PASSWORD } })).rejects.toBeDefined();
    expect(await db.select().from(passkeys).where(eq(passkeys.userId, used.user.id))).toEqual([]);
    expect(await sessionCount(used.user.id)).toBe(0);
    const [row] = await db.select({ flag: users.twoFactorEnabled }).from(users).where(eq(users.id, used.user.id));
    expect(row.flag).toBe(false);
    expect((await passkeySignIn(used.authenticator.authenticate)).result).toMatchObject({ ok: false });
    const trail = await auditTrail(db, `user:${used.email}`);
    expect(trail.filter((e) => e.actorEmail === admin.email).map((e) => [e.action, e.detail.method ?? null, e.detail.why ?? null])).toEqual(
      [
        ["user.reset_issued", null, null],
        ["two_factor.removed", "passkey", "account taken back with a password reset"],
        ["user.taken_back", null, null],
      ],
    );
    expect(trail.find((e) => e.action === "user.taken_back")?.detail).toMatchObject({
      passkeys: 1,
      app: false,
      sessions: 1,
      password: "retired",
    });
  });
});

describe("suggestedPasskeyName", () => {
  it("names the browser and system, or says nothing it does not know", async () => {
    const [pk] = await modules();
    expect(pk.suggestedPasskeyName("Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0")).toBe("Firefox on Linux");
    expect(pk.suggestedPasskeyName(null)).toBe("My passkey");
  });
});
