"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { safeNextPath } from "@/lib/auth/session";
import { signInWithPassword } from "@/lib/auth/sign-in";
import { getAuth } from "@/lib/auth/server";

export type SignInState = { error?: string; fieldErrors?: { email?: string; password?: string }; email?: string };

export async function signIn(_previous: SignInState, form: FormData): Promise<SignInState> {
  const email = form.get("email");
  const result = await signInWithPassword({ email, password: form.get("password") }, await headers());
  if (!result.ok) return { error: result.error, fieldErrors: result.fieldErrors, email: typeof email === "string" ? email : "" };
  redirect(safeNextPath(form.get("next")));
}

export async function signOut(): Promise<void> {
  await (await getAuth()).api.signOut({ headers: await headers() });
  redirect("/login?signed_out=1");
}
