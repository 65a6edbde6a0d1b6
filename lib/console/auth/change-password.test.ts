import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { auditTrail } from "@/lib/console/audit";
import { Problem } from "@/lib/contract/problem";
import { getDatabase } from "@/lib/platform/db";
import { changeOwnPassword } from "./change-password";
import { getAuth } from "./server";
import { sessionUser } from "./session";
import { signInWithPassword } from "./sign-in";
import { FREE_FAILURES_PER_ACCOUNT } from "./sign-in-limiter";
import { addUser } from "./users";

const PASSWORD = "correct horse battery";
const NEW = "velvet orbit lamp crane";

/** A new person signed in from two browsers: their first session (the one that changes) and the cookie of the other. */
async function signedInTwice() {
  const email = `change-${randomUUID()}@test.invalid`;
  await addUser(await getDatabase(), { email, name: "Change", role: "viewer", password: PASSWORD }, "system");
  const cookies: string[] = [];
  for (let i = 0; i < 2; i++) {
    const response = await (await getAuth()).api.signInEmail({
      body: { email, password: PASSWORD },
      headers: new Headers(),
      asResponse: true,
    });
    cookies.push(
      response.headers
        .getSetCookie()
        .map((cookie) => cookie.split(";")[0])
        .join("; "),
    );
  }
  const me = (await sessionUser(new Headers({ cookie: cookies[0] })))!;
  return { me, email, mine: cookies[0], other: cookies[1] };
}

const at = (address: string) => ({ headers: new Headers({ "x-forwarded-for": address }), address });
const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(Problem);
  return error as Problem;
};

describe("changeOwnPassword", () => {
  it("with the current password: the new one signs in, the old one no more, the other sessions end, and it is recorded", async () => {
    const { me, email, mine, other } = await signedInTwice();
    expect(await changeOwnPassword(await getDatabase(), me, { current: PASSWORD, password: NEW }, at("10.7.0.1"))).toEqual({
      sessionsEnded: 1,
    });
    expect(await sessionUser(new Headers({ cookie: other }))).toBeNull();
    expect(await sessionUser(new Headers({ cookie: mine }))).toMatchObject({ sessionId: me.sessionId });
    expect(await signInWithPassword({ email, password: NEW }, new Headers({ "x-forwarded-for": "10.7.0.2" }))).toEqual({ ok: true });
    expect(await signInWithPassword({ email, password: PASSWORD }, new Headers({ "x-forwarded-for": "10.7.0.2" }))).toMatchObject({
      ok: false,
    });
    const trail = await auditTrail(await getDatabase(), `user:${email}`);
    expect(trail.find((e) => e.action === "user.password_changed")).toMatchObject({
      actorEmail: email,
      detail: { address: "10.7.0.1", other_sessions_ended: 1 },
    });
  });

  it("refuses a wrong current password, counting it as a sign-in failure: after the free ones, even the right one waits", async () => {
    const { me, email } = await signedInTwice();
    for (let i = 0; i < FREE_FAILURES_PER_ACCOUNT; i++) {
      const wrong = await refusal(changeOwnPassword(await getDatabase(), me, { current: `guess-${i}-xx`, password: NEW }, at("10.7.1.1")));
      expect(wrong.errors).toEqual([{ pointer: "/current_password", detail: "is not your current password" }]);
    }
    const waits = await refusal(changeOwnPassword(await getDatabase(), me, { current: PASSWORD, password: NEW }, at("10.7.1.1")));
    expect(waits.status).toBe(429);
    expect(waits.detail).toMatch(/^Too many failed attempts for this account/);
    expect(waits.headers["retry-after"]).toMatch(/^\d+$/);
    // Nothing changed: the old password still signs in from elsewhere.
    expect(await signInWithPassword({ email, password: PASSWORD }, new Headers({ "x-forwarded-for": "10.7.1.9" }))).toEqual({ ok: true });
    const trail = await auditTrail(await getDatabase(), `user:${email}`);
    expect(trail.filter((e) => e.action === "user.password_change_failed")).toHaveLength(FREE_FAILURES_PER_ACCOUNT);
  });

  it("holds the new password to the rules, and refuses the same one again", async () => {
    const { me } = await signedInTwice();
    const weak = await refusal(
      changeOwnPassword(await getDatabase(), me, { current: PASSWORD, password: "aaaaaaaaaaaaaaaa" }, at("10.7.2.1")),
    );
    expect(weak.errors?.[0]).toMatchObject({ pointer: "/password", detail: expect.stringMatching(/^repeats a few characters/) });
    const same = await refusal(changeOwnPassword(await getDatabase(), me, { current: PASSWORD, password: PASSWORD }, at("10.7.2.1")));
    expect(same.errors?.[0]).toMatchObject({
      pointer: "/password",
      detail: "is the same as the current password you typed; choose a new one",
    });
  });

  it("leaves a demo account's published password as it is", async () => {
    const demo = { id: "demo", email: "viewer@example.com", sessionId: "x" };
    const refused = await refusal(changeOwnPassword(await getDatabase(), demo, { current: "sandbox-demo", password: NEW }, at("10.7.3.1")));
    expect(refused).toMatchObject({ status: 403, title: "The demo accounts keep their password" });
  });
});
