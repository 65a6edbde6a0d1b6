"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { guardedAction, guardedFormAction } from "@/lib/console/bff/action";
import { getAuth } from "./server";
import { safeNextPath } from "./session";
import { credentialsSchema, signInWithPassword } from "./sign-in";

/** Sign-in form: the only action anyone may run, since nobody is signed in yet. */
export const signIn = guardedAction(
  "public",
  credentialsSchema.extend({ next: z.string().optional() }),
  async ({ email, password, next }) => {
    const result = await signInWithPassword({ email, password }, await headers());
    if (!result.ok) return { error: result.error, fieldErrors: result.fieldErrors ?? {}, values: { email }, answeredAt: Date.now() };
    redirect(safeNextPath(next));
  },
);

/** Anyone may sign out: without a session it is simply the way to the sign-in page. */
export const signOut = guardedFormAction("public", z.object({}), async () => {
  await (await getAuth()).api.signOut({ headers: await headers() });
  redirect("/login?signed_out=1");
});
