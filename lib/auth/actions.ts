"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { guardedAction } from "@/lib/bff/action";
import { safeNextPath } from "./session";
import { credentialsSchema, signInWithPassword } from "./sign-in";
import { getAuth } from "./server";

/** Sign-in form: the only action anyone may run, since nobody is signed in yet. */
export const signIn = guardedAction("public", credentialsSchema.extend({ next: z.string().optional() }), async ({ email, password, next }) => {
  const result = await signInWithPassword({ email, password }, await headers());
  if (!result.ok) return { error: result.error, fieldErrors: result.fieldErrors ?? {}, values: { email }, answeredAt: Date.now() };
  redirect(safeNextPath(next));
});

export const signOut = guardedAction("signed-in", z.object({}), async () => {
  await (await getAuth()).api.signOut({ headers: await headers() });
  redirect("/login?signed_out=1");
});
