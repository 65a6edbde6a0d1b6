import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { accounts, signInFailures, users } from "@/lib/console/schema";
import { getDatabase } from "@/lib/platform/db";
import { issueLink, spendLink } from "./account-links";
import { knownDeviceCookie, knownDeviceCookieName } from "./known-device";
import { safeNextPath } from "./session";
import { signInWithPassword } from "./sign-in";
import { FREE_FAILURES_PER_ACCOUNT, MAX_FAILURES_PER_ADDRESS } from "./sign-in-limiter";
import { addUser } from "./users";

const PASSWORD = "correct horse battery";
const from = (address: string) => new Headers({ "x-forwarded-for": address });

beforeAll(async () => {
  const db = await getDatabase();
  for (const name of ["ana", "ben", "cy", "dee", "ed", "flo"]) {
    await addUser(db, { email: `${name}@limits.test`, name, role: "viewer", password: PASSWORD }, "system");
  }
});

describe("signInWithPassword", () => {
  it("names each empty field", async () => {
    const result = await signInWithPassword({ email: " ", password: "" }, from("10.0.0.1"));
    expect(result).toMatchObject({ ok: false, fieldErrors: { email: "Enter your email address.", password: "Enter your password." } });
  });

  it("refuses an address or a password too long to be real, before anything is stored", async () => {
    const random = Array.from({ length: 3000 }, (_, i) => "abcdefghijklmnopqrstuvwxyz0123456789"[(i * 7919) % 36]).join("");
    const long = await signInWithPassword({ email: `${random}@example.com`, password: "x" }, from("10.0.0.9"));
    expect(long).toMatchObject({ ok: false, fieldErrors: { email: "An email address has at most 254 characters." } });
    const huge = await signInWithPassword({ email: "ana@limits.test", password: "x".repeat(1025) }, from("10.0.0.9"));
    expect(huge).toMatchObject({ ok: false, fieldErrors: { password: "A password has at most 1024 characters." } });
  });

  it("answers a wrong password and an unknown email with the same words", async () => {
    const wrong = await signInWithPassword({ email: "ana@limits.test", password: "nope-nope" }, from("10.0.0.2"));
    const unknown = await signInWithPassword({ email: "zed@limits.test", password: "nope-nope" }, from("10.0.0.2"));
    expect(wrong).toEqual(unknown);
    expect(wrong).toMatchObject({ ok: false, error: expect.stringContaining("do not match an account") });
  });

  it("signs in with the right password, whatever the email's letter case", async () => {
    expect(await signInWithPassword({ email: " Ana@Limits.TEST ", password: PASSWORD }, from("10.0.0.3"))).toEqual({ ok: true });
  });

  it(`makes an address wait after ${FREE_FAILURES_PER_ACCOUNT} failures for one account, and never locks the owner out elsewhere`, async () => {
    for (let i = 0; i < FREE_FAILURES_PER_ACCOUNT; i++) {
      expect(await signInWithPassword({ email: "ben@limits.test", password: `wrong-${i}` }, from("10.1.0.1"))).toMatchObject({
        error: expect.stringContaining("do not match"),
      });
    }
    // From the attacking address even the right password must wait; tries during the wait are refused unchecked
    // and leave it as it is.
    const WAIT = /^Too many failed attempts for this account\. Try again in (2\d|30) seconds\.$/;
    for (const password of [PASSWORD, "wrong-again", PASSWORD]) {
      expect(await signInWithPassword({ email: "ben@limits.test", password }, from("10.1.0.1"))).toMatchObject({
        ok: false,
        error: expect.stringMatching(WAIT),
      });
    }
    // Once it is over, the next try is checked; wrong, it makes the next wait twice as long.
    const db = await getDatabase();
    await db
      .update(signInFailures)
      .set({ windowStart: sql`${signInFailures.windowStart} - interval '31 seconds'` })
      .where(eq(signInFailures.key, "pair:ben@limits.test|10.1.0.1"));
    expect(await signInWithPassword({ email: "ben@limits.test", password: "wrong-again" }, from("10.1.0.1"))).toMatchObject({
      error: expect.stringContaining("do not match"),
    });
    const longer = await signInWithPassword({ email: "ben@limits.test", password: PASSWORD }, from("10.1.0.1"));
    expect(longer).toMatchObject({ ok: false, error: expect.stringMatching(/Try again in (5\d|60) seconds\./) });
    // The owner, from their own address, is not affected.
    expect(await signInWithPassword({ email: "ben@limits.test", password: PASSWORD }, from("10.1.9.9"))).toEqual({ ok: true });
  });

  it("counts tries refused during an account's wait against nothing: the address stays open to its other people", async () => {
    for (let i = 0; i < FREE_FAILURES_PER_ACCOUNT; i++) {
      await signInWithPassword({ email: "cy@limits.test", password: `wrong-${i}` }, from("10.1.7.1"));
    }
    for (let i = 0; i <= MAX_FAILURES_PER_ADDRESS; i++) {
      expect(await signInWithPassword({ email: "cy@limits.test", password: PASSWORD }, from("10.1.7.1"))).toMatchObject({
        error: expect.stringMatching(/^Too many failed attempts for this account/),
      });
    }
    expect(await signInWithPassword({ email: "ana@limits.test", password: PASSWORD }, from("10.1.7.1"))).toEqual({ ok: true });
  });

  it("takes the client's claimed X-Forwarded-For entries for nothing: the last one is what the server saw", async () => {
    for (let i = 0; i < FREE_FAILURES_PER_ACCOUNT; i++) {
      await signInWithPassword({ email: "ed@limits.test", password: `wrong-${i}` }, from(`198.51.100.${i}, 10.5.0.1`));
    }
    expect(await signInWithPassword({ email: "ed@limits.test", password: PASSWORD }, from("203.0.113.9, 10.5.0.1"))).toMatchObject({
      ok: false,
      error: expect.stringContaining("Too many failed attempts for this account"),
    });
  });

  it(`pauses an address after ${MAX_FAILURES_PER_ADDRESS} failures across accounts`, async () => {
    for (let i = 0; i < MAX_FAILURES_PER_ADDRESS; i++) {
      await signInWithPassword({ email: `guess-${i}@limits.test`, password: "nope-nope" }, from("10.2.0.1"));
    }
    const blocked = await signInWithPassword({ email: "cy@limits.test", password: PASSWORD }, from("10.2.0.1"));
    expect(blocked).toMatchObject({ ok: false, error: expect.stringContaining("from your network") });
    expect(await signInWithPassword({ email: "cy@limits.test", password: PASSWORD }, from("10.2.0.2"))).toEqual({ ok: true });
  });

  it("lets no more than the limit through when attempts arrive all at once", async () => {
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => signInWithPassword({ email: "dee@limits.test", password: `wrong-${i}` }, from("10.3.0.1"))),
    );
    const paused = results.filter((r) => !r.ok && r.error?.startsWith("Too many failed attempts"));
    expect(paused.length).toBe(12 - FREE_FAILURES_PER_ACCOUNT);
  });

  it("makes the sixth attempt wait even when the fifth was let through at the very same instant, or later by the clock", async () => {
    // The state a burst leaves: the last attempt let through was stamped at (or, from a transaction that began
    // later but took the row first, after) the clock this attempt reads.
    const db = await getDatabase();
    for (const [email, stamped] of [
      ["ed@limits.test", sql`clock_timestamp()`],
      ["flo@limits.test", sql`clock_timestamp() + interval '1 second'`],
    ] as const) {
      await db.insert(signInFailures).values({ key: `pair:${email}|10.3.0.9`, windowStart: stamped, failures: FREE_FAILURES_PER_ACCOUNT });
      const result = await signInWithPassword({ email, password: PASSWORD }, from("10.3.0.9"));
      expect(result).toMatchObject({ ok: false, error: expect.stringMatching(/^Too many failed attempts/) });
    }
  });

  it("counts the address the nearest proxy saw, not what the client claims further left", async () => {
    for (let i = 0; i < MAX_FAILURES_PER_ADDRESS; i++) {
      await signInWithPassword({ email: `spray-${i}@limits.test`, password: "nope-nope" }, from(`203.0.113.${i}, 10.4.0.1`));
    }
    const result = await signInWithPassword({ email: "spray-x@limits.test", password: "nope-nope" }, from("198.51.100.7, 10.4.0.1"));
    expect(result).toMatchObject({ ok: false, error: expect.stringContaining("from your network") });
  });
});

describe("a known device", () => {
  const withCookie = (address: string, value: string) =>
    new Headers({ "x-forwarded-for": address, cookie: `${knownDeviceCookieName()}=${value}` });
  const on = async (address: string, email: string) => withCookie(address, await knownDeviceCookie(email));
  const ben = { email: "ben@limits.test", password: PASSWORD };
  const NETWORK = { ok: false, error: expect.stringContaining("from your network"), retryAfterSeconds: expect.any(Number) };

  it("signs its person in from an address others' guesses have blocked; nobody else, and no forged or old cookie", async () => {
    for (let i = 0; i <= MAX_FAILURES_PER_ADDRESS; i++) {
      await signInWithPassword({ email: `guess-${i}@limits.test`, password: "nope-nope" }, from("10.0.0.77"));
    }
    expect(await signInWithPassword(ben, from("10.0.0.77"))).toMatchObject(NETWORK);
    expect(await signInWithPassword(ben, await on("10.0.0.77", "ben@limits.test"))).toEqual({ ok: true });
    // Its email in another case is the same person.
    expect(await signInWithPassword(ben, await on("10.0.0.77", "Ben@Limits.test"))).toEqual({ ok: true });

    const bens = await knownDeviceCookie("ben@limits.test");
    const [version, device, issued, , signed] = bens.split(".");
    const cys = (await knownDeviceCookie("cy@limits.test")).split(".")[3];
    const refused = [
      await knownDeviceCookie("cy@limits.test"), // someone else's device
      [version, device, issued, cys, signed].join("."), // Ben's signature over Cy's email
      `${bens.slice(0, -3)}${bens.endsWith("AAA") ? "BBB" : "AAA"}`, // its signature changed
      [version, device, String(Number(issued) - 1), bens.split(".")[3], signed].join("."), // its time changed
      await knownDeviceCookie("ben@limits.test", Date.now() - 181 * 86_400_000), // older than the browser keeps it
      `${bens}.extra`,
      "x.y.z",
      "",
    ];
    for (const value of refused) expect(await signInWithPassword(ben, withCookie("10.0.0.77", value)), value).toMatchObject(NETWORK);
  });

  it(`makes the device itself wait after ${FREE_FAILURES_PER_ACCOUNT} wrong passwords, wherever it is; its failures leave the address alone`, async () => {
    const dee = await knownDeviceCookie("dee@limits.test");
    for (let i = 0; i < FREE_FAILURES_PER_ACCOUNT; i++) {
      expect(await signInWithPassword({ email: "dee@limits.test", password: "nope-nope" }, withCookie("10.0.0.78", dee))).toMatchObject({
        error: expect.stringContaining("do not match"),
      });
    }
    // The device waits, from another address too; the address it was on does not.
    const wait = { ok: false, error: expect.stringContaining("for this account") };
    expect(await signInWithPassword({ email: "dee@limits.test", password: PASSWORD }, withCookie("10.0.0.79", dee))).toMatchObject(wait);
    expect(await signInWithPassword({ email: "dee@limits.test", password: PASSWORD }, from("10.0.0.78"))).toEqual({ ok: true });
  });
  it("is forgotten when its person's password is reset: a copy kept by whoever made the reset needed lifts no limit", async () => {
    for (let i = 0; i <= MAX_FAILURES_PER_ADDRESS; i++) {
      await signInWithPassword({ email: `guess-flo-${i}@limits.test`, password: "nope-nope" }, from("10.0.0.80"));
    }
    // Flo chose her password ten minutes ago and signed in on this browser a minute ago.
    const db = await getDatabase();
    const [person] = await db.select({ id: users.id }).from(users).where(eq(users.email, "flo@limits.test"));
    await db
      .update(accounts)
      .set({ updatedAt: new Date(Date.now() - 600_000) })
      .where(eq(accounts.userId, person.id));
    const before = await knownDeviceCookie("flo@limits.test", Date.now() - 60_000);
    const flo = { email: "flo@limits.test", password: PASSWORD };
    expect(await signInWithPassword(flo, withCookie("10.0.0.80", before))).toEqual({ ok: true });

    const link = await issueLink(db, { kind: "reset", userId: person.id, actor: "system", address: "10.0.0.1" });
    await spendLink(db, { kind: "reset", token: link.url.split("/").at(-1)!, password: "a new horse battery", address: "10.0.0.1" });

    const renewed = { ...flo, password: "a new horse battery" };
    expect(await signInWithPassword(renewed, withCookie("10.0.0.80", before))).toMatchObject(NETWORK);
    // A device issued since, as the sign-in after the reset issues one, is known again.
    expect(await signInWithPassword(renewed, await on("10.0.0.80", "flo@limits.test"))).toEqual({ ok: true });
  });
});

describe("safeNextPath", () => {
  it.each([
    ["/invoices?status=new#top", "/invoices?status=new#top"],
    ["/users", "/users"],
    ["//evil.example/x", "/overview"],
    ["/\\evil.example", "/overview"],
    ["/\t/evil.example", "/overview"],
    ["/\n/evil.example", "/overview"],
    ["https://evil.example", "/overview"],
    ["javascript:alert(1)", "/overview"],
    ["/login?next=/users", "/overview"],
    // Paths that normalise to "//host", which a browser reads as another site.
    ["/.//evil.example", "/overview"],
    ["/a/..//evil.example", "/overview"],
    ["/%2e//evil.example", "/overview"],
    ["/%2e%2e//evil.example", "/overview"],
    ["/invoices/..//evil.example", "/overview"],
    ["/./\\evil.example", "/overview"],
    ["/invoices/../users", "/users"],
    [undefined, "/overview"],
  ])("%j → %s", (value, expected) => {
    expect(safeNextPath(value)).toBe(expected);
  });
});
