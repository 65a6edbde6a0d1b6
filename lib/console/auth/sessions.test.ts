import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { auditTrail } from "@/lib/console/audit";
import { sessions } from "@/lib/console/schema";
import { getDatabase } from "@/lib/platform/db";
import { getAuth } from "./server";
import { sessionUser } from "./session";
import { readSessionRow } from "./session-read";
import { listSessions, recentSignIns, sessionsByPerson } from "./sessions";
import { signedInCookie } from "./signed-in-cookie";
import { addUser } from "./users";

// Server actions read the request through next/headers; each call here names the cookie and address it comes with.
let request = new Headers();
vi.mock("next/headers", () => ({
  headers: async () => request,
  cookies: async () => ({ get: () => undefined, getAll: () => [], set: () => undefined, delete: () => undefined, has: () => false }),
}));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

const PASSWORD = "correct horse battery";
const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0";
const SAFARI =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";

/** Signs `email` in once more from a browser; answers the Cookie header it would send. */
async function signInFrom(email: string, userAgent: string, address = "198.51.100.7"): Promise<string> {
  const response = await (await getAuth()).api.signInEmail({
    body: { email, password: PASSWORD },
    headers: new Headers({ "user-agent": userAgent, "x-forwarded-for": address }),
    asResponse: true,
  });
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

async function person(role: "viewer" | "admin" = "viewer") {
  const email = `sessions-${randomUUID()}@test.invalid`;
  await addUser(await getDatabase(), { email, name: "Sessions", role, password: PASSWORD }, "system");
  return email;
}

const as = (cookie: string, address = "203.0.113.9") => {
  request = new Headers({ cookie, "x-forwarded-for": address });
};
const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.set(key, value);
  return data;
};
const actions = () => import("./session-actions");

let email: string;
let laptop: string;
let phone: string;
beforeAll(async () => {
  email = await person();
  laptop = await signInFrom(email, FIREFOX);
  phone = await signInFrom(email, SAFARI);
});

describe("a person's sessions", () => {
  it("are listed with browser, system, address and times, this one first and marked, and no token", async () => {
    const me = (await sessionUser(new Headers({ cookie: laptop })))!;
    const list = await listSessions(await getDatabase(), me);
    expect(list).toHaveLength(2);
    expect(list[0]).toMatchObject({ id: me.sessionId, current: true, browser: "Firefox 127", system: "Linux" });
    expect(list[1]).toMatchObject({ current: false, browser: "Safari 17", system: "iOS" });
    for (const s of list) expect(Date.parse(s.expiresAt)).toBeGreaterThan(Date.parse(s.signedInAt));
    const tokens = (await (await getDatabase()).select({ token: sessions.token }).from(sessions)).map((r) => r.token);
    const shown = JSON.stringify(list);
    for (const token of tokens) expect(shown).not.toContain(token);
  });

  it("show an IPv6 address whole, as people write it", async () => {
    const viewer = await person();
    const here = await signInFrom(viewer, FIREFOX, "2001:db8:85a3::8a2e:370:7334");
    const me = (await sessionUser(new Headers({ cookie: here })))!;
    expect((await listSessions(await getDatabase(), me))[0].address).toBe("2001:db8:85a3::8a2e:370:7334");
  });

  it("one ended by its person is refused on its next request, as a read and as a route", async () => {
    const viewer = await person();
    const here = await signInFrom(viewer, FIREFOX);
    const there = await signInFrom(viewer, SAFARI);
    const me = (await sessionUser(new Headers({ cookie: here })))!;
    const other = (await sessionUser(new Headers({ cookie: there })))!;
    expect(other.email).toBe(viewer);

    as(here);
    const answer = await (await actions()).endOwnSessionAction(form({ session: other.sessionId }));
    expect(answer).toMatchObject({ ok: "Signed out of Safari 17 on iOS." });

    expect(await readSessionRow(new Headers({ cookie: there }))).toBe("ended");
    expect(await sessionUser(new Headers({ cookie: there }))).toBeNull();
    const { GET } = await import("@/app/api/invoices/route");
    const refused = await GET(new Request("http://localhost/api/invoices", { headers: { cookie: there } }), {
      params: Promise.resolve({}),
    } as never);
    expect(refused.status).toBe(401);
    // The one that ended it goes on.
    expect(await sessionUser(new Headers({ cookie: here }))).toMatchObject({ sessionId: me.sessionId });

    const [entry] = (await auditTrail(await getDatabase(), `user:${viewer}`)).filter((e) => e.action === "session.ended");
    expect(entry).toMatchObject({
      actorEmail: viewer,
      detail: expect.objectContaining({
        by: "self",
        session_id: other.sessionId,
        browser: "Safari 17",
        system: "iOS",
        address: "203.0.113.9",
      }),
    });
  });

  it("sign out everywhere else ends all but this one, and records how many", async () => {
    const viewer = await person();
    const here = await signInFrom(viewer, FIREFOX);
    const others = [await signInFrom(viewer, SAFARI), await signInFrom(viewer, FIREFOX)];
    as(here);
    expect(await (await actions()).endOtherSessionsAction(form({}))).toMatchObject({ ok: "Signed out of 2 other sessions." });
    for (const cookie of others) expect(await sessionUser(new Headers({ cookie }))).toBeNull();
    const me = (await sessionUser(new Headers({ cookie: here })))!;
    expect(await listSessions(await getDatabase(), me)).toEqual([expect.objectContaining({ id: me.sessionId, current: true })]);
    const entries = (await auditTrail(await getDatabase(), `user:${viewer}`)).filter((e) => e.action === "session.ended_others");
    expect(entries).toEqual([expect.objectContaining({ detail: expect.objectContaining({ count: 2, address: "203.0.113.9" }) })]);
    expect(await (await actions()).endOtherSessionsAction(form({}))).toMatchObject({ ok: "No other session was signed in." });
  });

  it("another person's session cannot be ended by a non-admin, by either action", async () => {
    const stranger = await signedInCookie("finance");
    const victim = (await sessionUser(new Headers({ cookie: phone })))!;
    as(stranger);
    const { endOwnSessionAction, endUserSessionAction } = await actions();
    expect(await endOwnSessionAction(form({ session: victim.sessionId }))).toMatchObject({ problem: { status: 404 } });
    expect(await endUserSessionAction(form({ session: victim.sessionId }))).toMatchObject({ problem: { status: 403 } });
    expect(await sessionUser(new Headers({ cookie: phone }))).toMatchObject({ sessionId: victim.sessionId });
  });

  it("an admin sees everyone's sessions and ends one, recorded under its person with the admin's address", async () => {
    const admin = await signInFrom(await person("admin"), FIREFOX);
    const me = (await sessionUser(new Headers({ cookie: admin })))!;
    const victim = (await sessionUser(new Headers({ cookie: phone })))!;
    const all = await sessionsByPerson(await getDatabase(), me.sessionId);
    expect(all.get(victim.id)?.map((s) => s.id)).toContain(victim.sessionId);
    expect(all.get(me.id)).toEqual([expect.objectContaining({ current: true })]);

    as(admin, "192.0.2.44");
    const answer = await (await actions()).endUserSessionAction(form({ session: victim.sessionId }));
    expect(answer).toMatchObject({ ok: `Signed ${email} out of Safari 17 on iOS.` });
    expect(await sessionUser(new Headers({ cookie: phone }))).toBeNull();
    const [entry] = (await auditTrail(await getDatabase(), `user:${email}`)).filter((e) => e.action === "session.ended");
    expect(entry).toMatchObject({ actorId: me.id, detail: expect.objectContaining({ by: "admin", address: "192.0.2.44" }) });
    // Ended already: said so, nothing else happens.
    expect(await (await actions()).endUserSessionAction(form({ session: victim.sessionId }))).toMatchObject({ problem: { status: 404 } });
  });
});

describe("recent sign-ins", () => {
  it("lists the person's last attempts from the audit log, newest first, with method, outcome and address", async () => {
    const { signInWithPassword } = await import("./sign-in");
    const viewer = await person();
    const from = new Headers({ "x-forwarded-for": "198.51.100.23", "user-agent": FIREFOX });
    expect(await signInWithPassword({ email: viewer, password: "not it at all" }, from)).toMatchObject({ ok: false });
    expect(await signInWithPassword({ email: viewer.toUpperCase(), password: PASSWORD }, from)).toEqual({ ok: true });
    const list = await recentSignIns(await getDatabase(), viewer);
    expect(list).toEqual([
      expect.objectContaining({ outcome: "Signed in", method: "Password", reason: null, address: "198.51.100.23" }),
      expect.objectContaining({ outcome: "Refused", method: "Password", reason: "wrong email or password", address: "198.51.100.23" }),
    ]);
    expect(Date.parse(list[0].at)).toBeGreaterThanOrEqual(Date.parse(list[1].at));
  });

  it("keeps to the last ten", async () => {
    const { signInWithPassword } = await import("./sign-in");
    const viewer = await person();
    for (let i = 0; i < 12; i++) {
      await signInWithPassword({ email: viewer, password: PASSWORD }, new Headers({ "x-forwarded-for": `198.51.100.${i}` }));
    }
    expect(await recentSignIns(await getDatabase(), viewer)).toHaveLength(10);
  });
});

describe("the session id read with the person", () => {
  it("is the row's id, the same through the one-query read and better-auth's", async () => {
    const cookie = await signedInCookie("support");
    const fast = (await sessionUser(new Headers({ cookie })))!;
    const [row] = await (await getDatabase()).select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, fast.id));
    expect(fast.sessionId).toBe(row.id);
    const session = await (await getAuth()).api.getSession({ headers: new Headers({ cookie }) });
    expect(session?.session.id).toBe(fast.sessionId);
  });
});
