"use server";

import { revalidatePath } from "next/cache";
import { requirePermission } from "@/lib/auth/require-permission";
import { isRole } from "@/lib/auth/roles";
import { addUser, setUserDisabled, setUserRole } from "@/lib/auth/users";
import { getDatabase } from "@/lib/db";
import { Problem, toProblem } from "@/lib/problem";

export type ActionState = {
  ok?: string;
  error?: string;
  fieldErrors?: Record<string, string>;
  /** What was typed, so a refused form comes back filled in (never the password). */
  values?: Record<string, string>;
  /** Changes with every answer, so the form remounts with `values` as its defaults. */
  answeredAt?: number;
};

export async function addUserAction(_previous: ActionState, form: FormData): Promise<ActionState> {
  try {
    const actor = await requirePermission("users:manage");
    const user = await addUser(
      await getDatabase(),
      {
        email: String(form.get("email") ?? ""),
        name: String(form.get("name") ?? ""),
        role: String(form.get("role") ?? "") as never,
        password: String(form.get("password") ?? ""),
      },
      actor,
    );
    revalidatePath("/users");
    return { ok: `${user.email} can now sign in as ${user.role}.`, answeredAt: Date.now() };
  } catch (error) {
    return { ...failure(error), answeredAt: Date.now(), values: { name: String(form.get("name") ?? ""), email: String(form.get("email") ?? ""), role: String(form.get("role") ?? "") } };
  }
}

export async function setRoleAction(_previous: ActionState, form: FormData): Promise<ActionState> {
  try {
    const actor = await requirePermission("users:manage");
    const role = form.get("role");
    const email = String(form.get("email") ?? "");
    if (!isRole(role)) throw new Problem({ status: 422, code: "validation_failed", title: "Choose a role" });
    await setUserRole(await getDatabase(), email, role, actor);
    revalidatePath("/users");
    return { ok: `${email} is now ${role}.` };
  } catch (error) {
    return failure(error);
  }
}

export async function setAccessAction(_previous: ActionState, form: FormData): Promise<ActionState> {
  try {
    const actor = await requirePermission("users:manage");
    const email = String(form.get("email") ?? "");
    const disabled = form.get("disabled") === "true";
    await setUserDisabled(await getDatabase(), email, disabled, actor);
    revalidatePath("/users");
    return { ok: disabled ? `${email} can no longer sign in.` : `${email} can sign in again.` };
  } catch (error) {
    return failure(error);
  }
}

function failure(error: unknown): ActionState {
  const problem = toProblem(error);
  const fieldErrors = Object.fromEntries((problem.errors ?? []).map((e) => [e.pointer.slice(1), e.detail]));
  const invalid = Object.keys(fieldErrors).length > 0;
  return { error: invalid ? "Check the highlighted fields." : (problem.detail ?? problem.title), fieldErrors };
}
