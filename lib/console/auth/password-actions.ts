"use server";

import { revalidatePath } from "next/cache";
import { headers } from "next/headers";
import { z } from "zod";
import { type ActionState, guardedAction } from "@/lib/console/bff/action";
import { getDatabase } from "@/lib/platform/db";
import { changeOwnPassword } from "./change-password";
import { newPasswordSchema } from "./password-rules";
import { clientAddress } from "./sign-in";

const changePasswordSchema = z
  .object({ current_password: z.string().min(1, { error: "Enter your current password." }).max(1024) })
  .and(newPasswordSchema);

/** The Account page: a new password, proving the current one; the person's other sessions end. */
export const changePasswordAction = guardedAction("signed-in", changePasswordSchema, async (input, user): Promise<ActionState> => {
  const requestHeaders = await headers();
  const { sessionsEnded } = await changeOwnPassword(
    await getDatabase(),
    user!,
    { current: input.current_password, password: input.password },
    { headers: requestHeaders, address: clientAddress(requestHeaders) },
  );
  revalidatePath("/account");
  return {
    ok: `Your password is changed.${sessionsEnded ? ` Signed out of ${sessionsEnded} other session${sessionsEnded === 1 ? "" : "s"}.` : ""}`,
    answeredAt: Date.now(),
  };
});
