import { describe, expect, it } from "vitest";
import { MAX_FAILURES_PER_ADDRESS } from "@/lib/console/auth/sign-in-limiter";
import { noScriptForm } from "./no-script-form";
import { useConsoleServer } from "./use-console-server";

/**
 * The sign-in limit per address counts the address the console's server saw, not what a client claims:
 * failed sign-ins posted as a browser without script posts the form, each with a different made-up
 * X-Forwarded-For, are still one address (TRUSTED_PROXIES unset).
 */
const server = useConsoleServer();

/** The sign-in route as the sign-in-again dialog posts it, with `cookie` if given. */
const signInRoute = (body: object, cookie?: string) => {
  const { origin } = new URL(server().url);
  return fetch(`${origin}/api/session/sign-in`, {
    method: "POST",
    headers: { "content-type": "application/json", origin, ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
};
let knownDevice = "";

describe("the client's address", () => {
  it("a browser that signs in becomes a known device of that person", async () => {
    const answer = await signInRoute({ demo: "viewer" });
    expect(await answer.json()).toEqual({ ok: true, email: "viewer@example.com" });
    const cookie = answer.headers.getSetCookie().find((c) => c.startsWith("console_known_device="));
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=lax/i);
    expect(cookie).toMatch(/Max-Age=15552000/);
    knownDevice = cookie!.split(";")[0];
  });

  it(`ignores a client's own X-Forwarded-For: ${MAX_FAILURES_PER_ADDRESS} failures from one connection block it`, async () => {
    const fields = await noScriptForm(`${server().url}/login`);
    const answers: string[] = [];
    for (let i = 0; i < MAX_FAILURES_PER_ADDRESS + 5; i++) {
      const form = new FormData();
      for (const [k, v] of fields) form.set(k, v);
      form.set("email", `guess-${i}@example.com`);
      form.set("password", "not-the-password");
      const response = await fetch(`${server().url}/login`, {
        method: "POST",
        body: form,
        headers: { "x-forwarded-for": `198.51.100.${i}` },
      });
      expect(response.status).toBe(200);
      answers.push(await response.text());
    }
    const refused = answers.filter((html) => html.includes("Too many failed attempts from your network"));
    const checked = answers.filter((html) => html.includes("That email and password do not match an account"));
    expect({ checked: checked.length, refused: refused.length }).toEqual({ checked: MAX_FAILURES_PER_ADDRESS, refused: 5 });
  });

  it("then the sign-in route says so as 429 with Retry-After, so a client can tell the limit from wrong credentials", async () => {
    const answer = await signInRoute({ email: "guess-late@example.com", password: "not-the-password" });
    expect(answer.status).toBe(429);
    const wait = Number(answer.headers.get("retry-after"));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(15 * 60);
    expect(answer.headers.get("cache-control")).toContain("no-store");
    expect(await answer.json()).toMatchObject({ ok: false, error: expect.stringContaining("Too many failed attempts from your network") });
  });

  it("while the address is blocked, its people's known devices still sign them in; other browsers wait", async () => {
    expect((await signInRoute({ demo: "viewer" })).status).toBe(429);
    const known = await signInRoute({ demo: "viewer" }, knownDevice);
    expect(known.status).toBe(200);
    expect(await known.json()).toEqual({ ok: true, email: "viewer@example.com" });
    // The device is the viewer's, not the finance person's.
    expect((await signInRoute({ demo: "finance" }, knownDevice)).status).toBe(429);
  });
});
