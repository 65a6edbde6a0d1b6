"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { ROLES } from "@/lib/auth/roles";
import { addUser, newUserSchema, setUserDisabled, setUserRole } from "@/lib/auth/users";
import { guardedAction } from "@/lib/bff/action";
import { getDatabase } from "@/lib/db";

/** The Users page's forms; each needs users:manage. */
export const addUserAction = guardedAction("users:manage", newUserSchema, async (input, actor) => {
  const user = await addUser(await getDatabase(), input, actor!);
  revalidatePath("/users");
  return { ok: `${user.email} can now sign in as ${user.role}.`, answeredAt: Date.now() };
});

const roleChangeSchema = z.object({
  email: z.email(),
  role: z.enum(ROLES, { error: "Choose a role" }),
});

export const setRoleAction = guardedAction("users:manage", roleChangeSchema, async ({ email, role }, actor) => {
  await setUserRole(await getDatabase(), email, role, actor!);
  revalidatePath("/users");
  return { ok: `${email} is now ${role}.` };
});

const accessChangeSchema = z.object({
  email: z.email(),
  disabled: z.enum(["true", "false"]).transform((value) => value === "true"),
});

export const setAccessAction = guardedAction("users:manage", accessChangeSchema, async ({ email, disabled }, actor) => {
  await setUserDisabled(await getDatabase(), email, disabled, actor!);
  revalidatePath("/users");
  return { ok: disabled ? `${email} can no longer sign in.` : `${email} can sign in again.` };
});
