import { describe, expect, it } from "vitest";
import { MAX_FAILURES_PER_ADDRESS } from "@/lib/auth/sign-in-limiter";
import { useConsoleServer } from "./use-console-server";

/**
 * The sign-in limit per address counts the address the console's server saw, not what a client claims:
 * failed sign-ins posted as a browser without script posts the form, each with a different made-up
 * X-Forwarded-For, are still one address (TRUSTED_PROXIES unset).
 */
const server = useConsoleServer();

/** The sign-in form's fields as the page renders them for a browser without script (the action's ids). */
async function signInForm(): Promise<FormData> {
  const html = await fetch(`${server().url}/login`).then((r) => r.text());
  const form = new FormData();
  const firstForm = html.slice(html.indexOf("<form"), html.indexOf("</form>"));
  for (const [, name, value] of firstForm.matchAll(/<input type="hidden" name="([^"]+)"(?: value="([^"]*)")?/g)) {
    form.set(name, (value ?? "").replaceAll("&quot;", '"').replaceAll("&amp;", "&"));
  }
  expect([...form.keys()].some((k) => k.startsWith("$ACTION"))).toBe(true);
  return form;
}

describe("the client's address", () => {
  it(`ignores a client's own X-Forwarded-For: ${MAX_FAILURES_PER_ADDRESS} failures from one connection block it`, async () => {
    const fields = await signInForm();
    const answers: string[] = [];
    for (let i = 0; i < MAX_FAILURES_PER_ADDRESS + 5; i++) {
      const form = new FormData();
      for (const [k, v] of fields) form.set(k, v);
      form.set("email", `guess-${i}@example.com`);
      form.set("password", "not-the-password");
      const response = await fetch(`${server().url}/login`, { method: "POST", body: form, headers: { "x-forwarded-for": `198.51.100.${i}` } });
      expect(response.status).toBe(200);
      answers.push(await response.text());
    }
    const refused = answers.filter((html) => html.includes("Too many failed attempts from your network"));
    const checked = answers.filter((html) => html.includes("That email and password do not match an account"));
    expect({ checked: checked.length, refused: refused.length }).toEqual({ checked: MAX_FAILURES_PER_ADDRESS, refused: 5 });
  });
});
