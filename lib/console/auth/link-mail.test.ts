import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

/**
 * A real SMTP server on a free loopback port, started here: the console's mail goes over the wire to it, and
 * the link that arrives is then used to choose a password.
 */
type Arrived = { from: string; to: string[]; body: string };
const inbox: Arrived[] = [];
let server: SMTPServer;
let refuse = false;

// Server actions read the request through next/headers; here each call names the cookie it is made with.
let requestCookie = "";
vi.mock("next/headers", () => ({
  headers: async () => new Headers({ ...(requestCookie ? { cookie: requestCookie } : {}), "x-forwarded-for": "10.30.0.4" }),
  cookies: async () => ({ get: () => undefined, getAll: () => [], set: () => undefined, delete: () => undefined, has: () => false }),
}));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

beforeAll(async () => {
  server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    size: 100_000,
    socketTimeout: 10_000,
    onRcptTo(_address, _session, callback) {
      callback(refuse ? Object.assign(new Error("mailbox unavailable"), { responseCode: 550 }) : undefined);
    },
    onData(stream, session, callback) {
      let body = "";
      stream.setEncoding("utf8");
      stream.on("data", (chunk: string) => (body += chunk));
      stream.on("end", () => {
        inbox.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          body,
        });
        callback();
      });
    },
    logger: false,
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  // Set before anything reads the environment (lib/platform/env.ts reads it once).
  vi.stubEnv("SMTP_URL", `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`);
  vi.stubEnv("SMTP_FROM", "Invoice Console <console@links.test>");
  const { signedInCookie } = await import("./signed-in-cookie");
  requestCookie = await signedInCookie("admin");
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe("one-time links by email (SMTP_URL)", () => {
  it("emails the invitation; the link that arrived lets the person choose a password and signs them in", async () => {
    const { addUserAction } = await import("@/lib/console/users/actions");
    const email = `mailed-${Date.now()}@links.test`;
    const form = new FormData();
    for (const [key, value] of Object.entries({ email, name: "Mia Mailed", role: "finance" })) form.set(key, value);
    const answer = (await addUserAction(form)) as { link?: { url: string; emailedTo?: string; emailError?: string } };
    expect(answer.link).toMatchObject({ emailedTo: email });
    expect(answer.link?.emailError).toBeUndefined();

    expect(inbox).toHaveLength(1);
    const [mail] = inbox;
    expect(mail.from).toBe("console@links.test");
    expect(mail.to).toEqual([email]);
    expect(mail.body).toContain("Subject: You are invited to Invoice Console");
    expect(mail.body).toMatch(/Content-Type: text\/html/);
    const url = unfolded(mail.body).match(/https?:\/\/\S+\/invite\/[A-Za-z0-9_-]{43}/)?.[0];
    expect(url).toBe(answer.link?.url);

    const { acceptInvitationAction } = await import("./link-actions");
    const accept = new FormData();
    accept.set("token", new URL(url!).pathname.split("/").at(-1)!);
    accept.set("password", "a password from the mail");
    accept.set("password_again", "a password from the mail");
    requestCookie = "";
    await expect(acceptInvitationAction(accept)).rejects.toMatchObject({ digest: expect.stringContaining("/overview") });
    // Signed in by the link: recorded as a sign-in, so Users shows when they last signed in.
    const { auditTrail } = await import("@/lib/console/audit");
    const { getDatabase } = await import("@/lib/platform/db");
    expect((await auditTrail(await getDatabase(), `user:${email}`)).find((e) => e.action === "sign_in")?.detail).toMatchObject({
      method: "invitation",
    });
    const { signInWithPassword } = await import("./sign-in");
    expect(await signInWithPassword({ email, password: "a password from the mail" }, new Headers())).toEqual({ ok: true });
    // Used once: the same form again is told so.
    expect(await acceptInvitationAction(accept)).toMatchObject({ error: expect.stringContaining("already been used") });
  });

  it("says why a send failed, and still hands the admin the link", async () => {
    const { signedInCookie } = await import("./signed-in-cookie");
    requestCookie = await signedInCookie("admin");
    const { addUserAction } = await import("@/lib/console/users/actions");
    const { log } = await import("@/lib/platform/observability/log");
    const warned = vi.spyOn(log, "warn").mockImplementation(() => undefined);
    refuse = true;
    const email = `bounced-${Date.now()}@links.test`;
    const form = new FormData();
    for (const [key, value] of Object.entries({ email, name: "Bo Bounced", role: "viewer" })) form.set(key, value);
    const answer = (await addUserAction(form)) as { link?: { url: string; emailedTo?: string; emailError?: string } };
    refuse = false;
    expect(answer.link?.url).toMatch(/\/invite\/[A-Za-z0-9_-]{43}$/);
    expect(answer.link?.emailedTo).toBeUndefined();
    expect(answer.link?.emailError).toContain("mailbox unavailable");
    // Logged once, naming the person, never the link (it opens the account).
    expect(warned).toHaveBeenCalledTimes(1);
    expect(JSON.stringify(warned.mock.calls[0][0], ["to", "kind"])).toContain(email);
    expect(String(warned.mock.calls[0][1])).not.toContain("/invite/");
    expect(JSON.stringify(warned.mock.calls)).not.toContain(new URL(answer.link!.url).pathname);
  });
});

/** Quoted-printable soft line breaks ("=\r\n") may split a long link in the raw message. */
function unfolded(raw: string): string {
  return raw.replace(/=\r?\n/g, "").replace(/=3D/g, "=");
}
