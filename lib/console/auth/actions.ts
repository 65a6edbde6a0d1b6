"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { guardedAction, guardedFormAction } from "@/lib/console/bff/action";
import { getDatabase } from "@/lib/platform/db";
import { safeNextPath } from "./session";
import { signOutSession } from "./sessions";
import { credentialsSchema, signInWithPassword } from "./sign-in";
import { signInWithCode } from "./sign-in-code";

/**
 * Sign-in form, first step: the only action anyone may run, since nobody is signed in yet. A person with a
 * second factor is answered `step: "code"`, and the form asks for the code next (`signInCode`).
 */
export const signIn = guardedAction(
  "public",
  credentialsSchema.extend({ next: z.string().optional() }),
  async ({ email, password, next }) => {
    const result = await signInWithPassword({ email, password }, await headers());
    if (!result.ok) {
      return {
        step: result.step,
        factors: result.factors,
        error: result.error,
        fieldErrors: result.fieldErrors ?? {},
        values: { email },
        answeredAt: Date.now(),
      };
    }
    redirect(safeNextPath(next));
  },
);

/** Sign-in form, second step: the authentication code (app or recovery code) for the pending sign-in. */
export const signInCode = guardedAction(
  "public",
  z.object({ code: z.string().max(64).optional(), next: z.string().optional() }),
  async ({ code, next }) => {
    const result = await signInWithCode({ code }, await headers());
    if (!result.ok) return { step: result.step, error: result.error, fieldErrors: result.fieldErrors ?? {}, answeredAt: Date.now() };
    redirect(safeNextPath(next));
  },
);

/** Anyone may sign out: without a session it is simply the way to the sign-in page. */
export const signOut = guardedFormAction("public", z.object({}), async (_input, user) => {
  await signOutSession(await getDatabase(), await headers(), user);
  redirect("/login?signed_out=1");
});
