import { base32 } from "@better-auth/utils/base32";
import { createOTP } from "@better-auth/utils/otp";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { auditLog } from "@/lib/console/schema";
import { getDatabase } from "@/lib/platform/db";

// Server actions and pages read the request through next/headers; each call here names its cookie.
let requestCookie = "";
vi.mock("next/headers", () => ({
  headers: async () => new Headers(requestCookie ? { cookie: requestCookie, "x-forwarded-for": "10.9.0.1" } : {}),
  cookies: async () => ({ get: () => undefined, getAll: () => [], set: () => undefined, delete: () => undefined, has: () => false }),
}));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

const PASSWORD = "correct horse battery";
const cookieOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");

/** A person with an authenticator app set up: their email, session cookie, the app's key and recovery codes. */
async function enrolled(role: "viewer" | "support" = "viewer") {
  const [{ addUser }, { getAuth }, { sessionUser }, tf] = await Promise.all([
    import("./users"),
    import("./server"),
    import("./session"),
    import("./two-factor"),
  ]);
  const email = `${role}-${crypto.randomUUID()}@totp.test`;
  const db = await getDatabase();
  await addUser(db, { email, name: "Tess", role, password: PASSWORD }, "system");
  const cookie = cookieOf(await (await getAuth()).api.signInEmail({ body: { email, password: PASSWORD }, asResponse: true }));
  const user = (await sessionUser(new Headers({ cookie })))!;
  await tf.startEnrolment(db, user, PASSWORD, { headers: new Headers({ cookie }), address: "10.0.0.1" });
  const pending = await tf.enrolment(db, user);
  if (pending.state !== "pending") throw new Error("no enrolment");
  const uri = new URL(pending.uri);
  expect(`${uri.protocol}//${uri.host}${decodeURIComponent(uri.pathname)}`).toBe(`otpauth://totp/Invoice Console:${email}`);
  expect(Object.fromEntries(uri.searchParams)).toEqual({
    secret: expect.stringMatching(/^[A-Z2-7]+$/),
    issuer: "Invoice Console",
    algorithm: "SHA1",
    digits: "6",
    period: "30",
  });
  // The test's own RFC 6238 (better-auth's utils), from the URI the person would scan.
  const key = base32.decode(new URL(pending.uri).searchParams.get("secret")!);
  const otp = createOTP(new TextDecoder().decode(key));
  const codeAt = (offsetSteps: number) => otp.hotp(Math.floor(Date.now() / 30_000) + offsetSteps);
  const recoveryCodes = await tf.confirmEnrolment(db, user, await codeAt(0), "10.9.0.1");
  return { email, cookie, user, codeAt, recoveryCodes };
}

/** Email and password as the sign-in form sends them; the pending sign-in's cookie, as the browser would keep it. */
async function passwordStep(email: string) {
  const { getAuth } = await import("./server");
  const response = await (await getAuth()).api.signInEmail({ body: { email, password: PASSWORD }, asResponse: true });
  expect(await response.json()).toMatchObject({ twoFactorRedirect: true });
  return cookieOf(response);
}

const from = (address: string, cookie: string) => new Headers({ "x-forwarded-for": address, cookie });

describe("authenticator-app codes", () => {
  let person: Awaited<ReturnType<typeof enrolled>>;
  beforeAll(async () => {
    person = await enrolled();
  });

  it("sets up with a first code, gives ten recovery codes, and makes the password alone answer 'a code next'", async () => {
    expect(person.recoveryCodes).toHaveLength(10);
    // Crockford's base32, upper case: nothing to mistake (no I, L, O or U).
    for (const code of person.recoveryCodes) expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}$/);
    const { signInWithPassword } = await import("./sign-in");
    expect(await signInWithPassword({ email: person.email, password: PASSWORD }, from("10.9.1.1", ""))).toEqual({
      ok: false,
      step: "code",
      factors: { app: true, passkey: false },
    });
  });

  it("signs in with a current code once; the same code again is refused", async () => {
    const { signInWithCode } = await import("./sign-in-code");
    const code = await person.codeAt(1);
    expect(await signInWithCode({ code }, from("10.9.2.1", await passwordStep(person.email)))).toEqual({ ok: true, email: person.email });
    const replayed = await signInWithCode({ code }, from("10.9.2.1", await passwordStep(person.email)));
    expect(replayed).toMatchObject({ ok: false, step: "code", fieldErrors: { code: expect.stringContaining("used already") } });
  });

  it("takes a recovery code typed in lower case, without its dash, with O for 0 and l for 1", async () => {
    const { signInWithCode } = await import("./sign-in-code");
    const code = person.recoveryCodes[1];
    const typed = code.toLowerCase().replace("-", " ").replace(/0/g, "o").replace(/1/g, "l");
    expect(await signInWithCode({ code: typed }, from("10.9.3.2", await passwordStep(person.email)))).toMatchObject({ ok: true });
  });

  it("takes a code from before they were upper case only, in any case, never read as a new one", async () => {
    const { signInWithCode } = await import("./sign-in-code");
    const { getAuth } = await import("./server");
    const { symmetricEncrypt } = await import("better-auth/crypto");
    const { twoFactors } = await import("@/lib/console/schema");
    // Two codes as better-auth made them before: all lower case with l and o in it, and mixed case.
    const older = [...person.recoveryCodes, "k3l9o-bq7mz", "LhEsO-4Z1BD"];
    const key = (await (await getAuth()).$context).secretConfig;
    await (await getDatabase())
      .update(twoFactors)
      .set({ backupCodes: await symmetricEncrypt({ key, data: JSON.stringify(older) }) })
      .where(eq(twoFactors.userId, person.user.id));
    expect(await signInWithCode({ code: "k3l9o-bq7mz" }, from("10.9.3.3", await passwordStep(person.email)))).toMatchObject({ ok: true });
    expect(await signInWithCode({ code: "lhesO-4z1bd" }, from("10.9.3.4", await passwordStep(person.email)))).toMatchObject({ ok: true });
  });

  it("takes a recovery code once", async () => {
    const { signInWithCode } = await import("./sign-in-code");
    const [code] = person.recoveryCodes;
    expect(await signInWithCode({ code }, from("10.9.3.1", await passwordStep(person.email)))).toMatchObject({ ok: true });
    const again = await signInWithCode({ code }, from("10.9.3.1", await passwordStep(person.email)));
    expect(again).toMatchObject({ ok: false, fieldErrors: { code: expect.stringContaining("recovery code") } });
  });

  it("counts wrong codes toward the sign-in limits: after five, even the right code waits", async () => {
    const { signInWithCode } = await import("./sign-in-code");
    const pending = await passwordStep(person.email);
    for (let i = 0; i < 5; i++) {
      expect(await signInWithCode({ code: "000000" }, from("10.9.4.1", pending))).toMatchObject({
        fieldErrors: { code: expect.any(String) },
      });
    }
    const paused = await signInWithCode({ code: await person.codeAt(-1) }, from("10.9.4.1", pending));
    expect(paused).toMatchObject({ ok: false, error: expect.stringContaining("Too many failed attempts for this account") });
  });

  it("asks for the code again without a pending sign-in", async () => {
    const { signInWithCode } = await import("./sign-in-code");
    expect(await signInWithCode({ code: "123456" }, from("10.9.5.1", ""))).toMatchObject({
      ok: false,
      error: expect.stringContaining("again"),
    });
  });

  it("records sign-ins, failed codes, recovery-code use and the factor added, with the client address", async () => {
    const rows = await (await getDatabase())
      .select()
      .from(auditLog)
      .where(eq(auditLog.target, `user:${person.email}`));
    const actions = rows.map((r) => r.action);
    for (const action of ["two_factor.added", "sign_in", "sign_in.code_failed", "sign_in.recovery_code_used"])
      expect(actions).toContain(action);
    const failed = rows.filter((r) => r.action === "sign_in.code_failed").map((r) => r.detail);
    expect(failed).toContainEqual(expect.objectContaining({ address: "10.9.2.1", method: "totp", reason: "replayed" }));
    expect(failed).toContainEqual(expect.objectContaining({ address: "10.9.4.1", method: "totp", reason: "invalid" }));
  });

  it("turns off only with a current code", async () => {
    const other = await enrolled();
    const { removeTwoFactorAction } = await import("./two-factor-actions");
    requestCookie = other.cookie;
    const form = (code: string) => fd({ code });
    expect(await removeTwoFactorAction(form("111111"))).toMatchObject({ fieldErrors: { code: expect.stringContaining("does not match") } });
    expect(await removeTwoFactorAction(form(await other.codeAt(1)))).toMatchObject({ ok: expect.stringContaining("removed") });
    const { enrolment } = await import("./two-factor");
    expect(await enrolment(await getDatabase(), other.user)).toEqual({ state: "off" });
  });

  it("counts wrong codes to turn it off as failed sign-ins: after the free ones even the right code waits, and each is recorded", async () => {
    const other = await enrolled();
    const [{ removeTwoFactorAction }, { FREE_FAILURES_PER_ACCOUNT }, { enrolment }] = await Promise.all([
      import("./two-factor-actions"),
      import("./sign-in-limiter"),
      import("./two-factor"),
    ]);
    requestCookie = other.cookie;
    for (let i = 0; i < FREE_FAILURES_PER_ACCOUNT; i++) {
      expect(await removeTwoFactorAction(fd({ code: String(100000 + i) }))).toMatchObject({ fieldErrors: { code: expect.any(String) } });
    }
    expect(await removeTwoFactorAction(fd({ code: await other.codeAt(1) }))).toMatchObject({
      error: expect.stringMatching(/^Too many failed attempts for this account/),
    });
    requestCookie = "";
    expect(await enrolment(await getDatabase(), other.user)).toEqual({ state: "on" });
    const failed = await (await getDatabase())
      .select({ detail: auditLog.detail })
      .from(auditLog)
      .where(and(eq(auditLog.target, `user:${other.email}`), eq(auditLog.action, "two_factor.remove_failed")));
    expect(failed).toHaveLength(FREE_FAILURES_PER_ACCOUNT);
    expect(failed[0].detail).toEqual({ address: "10.9.0.1", reason: "invalid" });
    // Not a sign-in: the person's list of recent sign-ins does not show them as refused ones.
    const { recentSignIns } = await import("./sessions");
    expect((await recentSignIns(await getDatabase(), other.email)).filter((e) => e.outcome === "Refused")).toEqual([]);
  });
});

function fd(fields: Record<string, string>): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  return form;
}

describe("a role that needs a second factor", () => {
  let cookie: string;
  beforeAll(async () => {
    const [{ signedInCookie }, { setRequiredRoles }, { sessionUser }] = await Promise.all([
      import("./signed-in-cookie"),
      import("./two-factor"),
      import("./session"),
    ]);
    const admin = (await sessionUser(new Headers({ cookie: await signedInCookie("admin") })))!;
    await setRequiredRoles(await getDatabase(), ["support"], admin);
    cookie = await signedInCookie("support");
  });

  it("is told so by the session read", async () => {
    const { sessionUser } = await import("./session");
    expect(await sessionUser(new Headers({ cookie }))).toMatchObject({ role: "support", needsSecondFactor: true });
  });

  it("is refused by a route with a 403 that says where to set it up", async () => {
    const { bffRoute } = await import("@/lib/console/bff/route");
    const route = bffRoute("invoices:read", async () => ({ read: true }));
    const response = await route(new Request("http://localhost/api/x", { headers: { cookie } }), { params: Promise.resolve({}) });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ code: "second_factor_required", detail: expect.stringContaining("/two-factor") });
  });

  it("is refused by an action, but may run the set-up's own", async () => {
    requestCookie = cookie;
    const { setTimeZoneAction } = await import("@/lib/console/users/actions");
    expect(await setTimeZoneAction(fd({ time_zone: "Europe/Berlin" }))).toMatchObject({
      problem: { status: 403, code: "second_factor_required" },
    });
    const { startTwoFactorAction } = await import("./two-factor-actions");
    expect(await startTwoFactorAction(fd({ password: "correct horse battery" }))).toMatchObject({ ok: expect.any(String) });
  });

  it("is sent from a page to the set-up, which lets them in", async () => {
    requestCookie = cookie;
    const { guardPage } = await import("@/lib/console/bff/page");
    const { requireUser } = await import("./session");
    const redirected = await guardPage("invoices:read").then(
      () => null,
      (e: { digest?: string }) => e.digest,
    );
    expect(redirected).toMatch(/^NEXT_REDIRECT;.*;\/two-factor;/);
    expect(await requireUser({ settingUpSecondFactor: true })).toMatchObject({ needsSecondFactor: true });
  });

  it("is let in once the role no longer needs it", async () => {
    const [{ setRequiredRoles }, { sessionUser }] = await Promise.all([import("./two-factor"), import("./session")]);
    const admin = {
      id: "system-test",
      email: "admin@test.invalid",
      name: "A",
      role: "admin" as const,
      timeZone: null,
      needsSecondFactor: false,
      sessionId: "session-of-test",
    };
    await setRequiredRoles(await getDatabase(), [], admin);
    expect(await sessionUser(new Headers({ cookie }))).toMatchObject({ needsSecondFactor: false });
  });
});

describe("starting an authenticator app's set-up", () => {
  it("counts a wrong password as a failed sign-in: after the free ones even the right one waits, and each is recorded", async () => {
    const [{ addUser }, { getAuth }, { FREE_FAILURES_PER_ACCOUNT }, { startTwoFactorAction }] = await Promise.all([
      import("./users"),
      import("./server"),
      import("./sign-in-limiter"),
      import("./two-factor-actions"),
    ]);
    const email = `start-${crypto.randomUUID()}@totp.test`;
    await addUser(await getDatabase(), { email, name: "Sol", role: "viewer", password: PASSWORD }, "system");
    requestCookie = cookieOf(await (await getAuth()).api.signInEmail({ body: { email, password: PASSWORD }, asResponse: true }));
    const start = (password: string) => {
      const form = new FormData();
      form.set("password", password);
      return startTwoFactorAction(form);
    };
    for (let i = 0; i < FREE_FAILURES_PER_ACCOUNT; i++) {
      expect(await start(`guess-${i}-xx`)).toMatchObject({ fieldErrors: { password: "That password is not right." } });
    }
    expect(await start(PASSWORD)).toMatchObject({ error: expect.stringMatching(/^Too many failed attempts for this account/) });
    requestCookie = "";
    const failed = await (await getDatabase())
      .select({ detail: auditLog.detail })
      .from(auditLog)
      .where(and(eq(auditLog.target, `user:${email}`), eq(auditLog.action, "user.password_change_failed")));
    expect(failed.map((e) => e.detail)).toEqual(
      Array.from({ length: FREE_FAILURES_PER_ACCOUNT }, () => ({ address: "10.9.0.1", for: "authenticator_app" })),
    );
  });
});
