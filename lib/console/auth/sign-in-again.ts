"use server";

import { headers } from "next/headers";
import { z } from "zod";
import { guardedAction } from "@/lib/console/bff/action";
import { ROLE_DESCRIPTIONS } from "@/lib/contract/roles";
import { env } from "@/lib/platform/env";
import { credentialsSchema, signInWithPassword } from "./sign-in";
import { DEMO_PASSWORD, DEMO_USERS } from "./users";

/**
 * Signing in again in place (components/auth/sign-in-again.tsx): the session ended while a change or a form
 * waited, so the person signs in without leaving the page, through the same sign-in (limits and all) as the
 * sign-in page, and the page sends its change once more. No redirect: the answer says who is signed in now.
 * On the embedded sandbox a demo account is chosen by its role; its password never travels to the browser.
 */
export const signInAgainAction = guardedAction(
  "public",
  z.union([z.object({ demo: z.enum(DEMO_USERS.map((u) => u.role) as [string, ...string[]]) }), credentialsSchema]),
  async (input) => {
    const credentials =
      "demo" in input
        ? env().embeddedSandbox
          ? { email: `${input.demo}@example.com`, password: DEMO_PASSWORD }
          : { email: "", password: "" }
        : input;
    const result = await signInWithPassword(credentials, await headers());
    if (!result.ok)
      return {
        error: result.error,
        fieldErrors: result.fieldErrors ?? {},
        values: { email: "email" in input ? input.email : "" },
        answeredAt: Date.now(),
      };
    return { ok: "Signed in again.", email: credentials.email, answeredAt: Date.now() };
  },
);

/** What the dialog offers besides email and password: the demo accounts, on the embedded sandbox only. */
export const signInChoicesAction = guardedAction("public", z.object({}), async () => ({
  demo: env().embeddedSandbox ? DEMO_USERS.map((u) => ({ role: u.role, email: u.email, description: ROLE_DESCRIPTIONS[u.role] })) : [],
  answeredAt: Date.now(),
}));

/**
 * Whether the request still has a live session: a page that failed to load asks (app/(console)/error.tsx), so
 * that an ended session reads "signed out" rather than blaming the invoicing API. Says nothing about whom.
 */
export const sessionStateAction = guardedAction("public", z.object({}), async (_input, user) => ({
  signedIn: user !== null,
  answeredAt: Date.now(),
}));
