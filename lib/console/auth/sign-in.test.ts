import { beforeAll, describe, expect, it } from "vitest";
import { getDatabase } from "@/lib/platform/db";
import { KNOWN_DEVICE_COOKIE, knownDeviceCookie } from "./known-device";
import { safeNextPath } from "./session";
import { signInWithPassword } from "./sign-in";
import { FREE_FAILURES_PER_ACCOUNT, MAX_FAILURES_PER_ADDRESS } from "./sign-in-limiter";
import { addUser } from "./users";

const PASSWORD = "correct horse battery";
const from = (address: string) => new Headers({ "x-forwarded-for": address });

beforeAll(async () => {
  const db = await getDatabase();
  for (const name of ["ana", "ben", "cy", "dee", "ed"]) {
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
    // From the attacking address even the right password must wait, and each further try makes the wait longer.
    const paused = await signInWithPassword({ email: "ben@limits.test", password: PASSWORD }, from("10.1.0.1"));
    expect(paused).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^Too many failed attempts for this account\. Try again in (29|30) seconds\.$/),
    });
    await signInWithPassword({ email: "ben@limits.test", password: "wrong-again" }, from("10.1.0.1"));
    const longer = await signInWithPassword({ email: "ben@limits.test", password: "wrong-again" }, from("10.1.0.1"));
    expect(longer).toMatchObject({ ok: false, error: expect.stringMatching(/Try again in 2 minutes\./) });
    // The owner, from their own address, is not affected.
    expect(await signInWithPassword({ email: "ben@limits.test", password: PASSWORD }, from("10.1.9.9"))).toEqual({ ok: true });
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

  it("counts the address the nearest proxy saw, not what the client claims further left", async () => {
    for (let i = 0; i < MAX_FAILURES_PER_ADDRESS; i++) {
      await signInWithPassword({ email: `spray-${i}@limits.test`, password: "nope-nope" }, from(`203.0.113.${i}, 10.4.0.1`));
    }
    const result = await signInWithPassword({ email: "spray-x@limits.test", password: "nope-nope" }, from("198.51.100.7, 10.4.0.1"));
    expect(result).toMatchObject({ ok: false, error: expect.stringContaining("from your network") });
  });
});

describe("a known device", () => {
  const on = async (address: string, email: string) =>
    new Headers({ "x-forwarded-for": address, cookie: `${KNOWN_DEVICE_COOKIE}=${await knownDeviceCookie(email)}` });

  it("signs its person in from an address others' guesses have blocked; nobody else, and no forged cookie", async () => {
    for (let i = 0; i <= MAX_FAILURES_PER_ADDRESS; i++) {
      await signInWithPassword({ email: `guess-${i}@limits.test`, password: "nope-nope" }, from("10.0.0.77"));
    }
    const blocked = await signInWithPassword({ email: "ben@limits.test", password: PASSWORD }, from("10.0.0.77"));
    expect(blocked).toMatchObject({
      ok: false,
      error: expect.stringContaining("from your network"),
      retryAfterSeconds: expect.any(Number),
    });

    expect(await signInWithPassword({ email: "ben@limits.test", password: PASSWORD }, await on("10.0.0.77", "ben@limits.test"))).toEqual({
      ok: true,
    });
    // A device of someone else's, a cookie with its signature changed, a cookie of garbage: the address's limit.
    const others = await on("10.0.0.77", "cy@limits.test");
    expect(await signInWithPassword({ email: "ben@limits.test", password: PASSWORD }, others)).toMatchObject({ ok: false });
    const bens = (await on("10.0.0.77", "ben@limits.test")).get("cookie")!;
    const forged = `${bens.slice(0, -3)}${bens.endsWith("AAA") ? "BBB" : "AAA"}`;
    for (const cookie of [forged, `${KNOWN_DEVICE_COOKIE}=x.y.z`, `${KNOWN_DEVICE_COOKIE}=`]) {
      const headers = new Headers({ "x-forwarded-for": "10.0.0.77", cookie });
      expect(await signInWithPassword({ email: "ben@limits.test", password: PASSWORD }, headers)).toMatchObject({ ok: false });
    }
  });

  it(`makes the device itself wait after ${FREE_FAILURES_PER_ACCOUNT} wrong passwords`, async () => {
    const device = await on("10.0.0.78", "dee@limits.test");
    for (let i = 0; i < FREE_FAILURES_PER_ACCOUNT; i++) {
      expect(await signInWithPassword({ email: "dee@limits.test", password: "nope-nope" }, device)).toMatchObject({
        error: expect.stringContaining("do not match"),
      });
    }
    expect(await signInWithPassword({ email: "dee@limits.test", password: PASSWORD }, device)).toMatchObject({
      ok: false,
      error: expect.stringContaining("for this account"),
    });
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
