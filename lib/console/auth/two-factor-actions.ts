"use server";

import { revalidatePath } from "next/cache";
import { headers } from "next/headers";
import { z } from "zod";
import { guardedAction } from "@/lib/console/bff/action";
import { getDatabase } from "@/lib/platform/db";
import { hasPasskey } from "./passkeys";
import { givenPasswordField } from "./password-rules";
import { SECOND_FACTOR_SETUP_PATH } from "./session";
import { clientAddress } from "./sign-in";
import { confirmEnrolment, removeFactor, startEnrolment } from "./two-factor";

const redraw = () => {
  revalidatePath("/account");
  revalidatePath(SECOND_FACTOR_SETUP_PATH);
};

/** Setting up an authenticator app, step one: the password, then the page draws the QR code and the key URI. */
export const startTwoFactorAction = guardedAction(
  "second-factor-setup",
  z.object({ password: givenPasswordField }),
  async ({ password }, user) => {
    const requestHeaders = await headers();
    await startEnrolment(await getDatabase(), user!, password, { headers: requestHeaders, address: clientAddress(requestHeaders) });
    redraw();
    return { ok: "Add the key to your authenticator app, then enter the code it shows.", answeredAt: Date.now() };
  },
);

const codeSchema = z.object({ code: z.string().trim().min(1, { error: "Enter the 6-digit code from your app." }).max(64) });

/** Step two: the app's first code confirms it; the answer carries the recovery codes, shown this once. */
export const confirmTwoFactorAction = guardedAction("second-factor-setup", codeSchema, async ({ code }, user) => {
  const recoveryCodes = await confirmEnrolment(await getDatabase(), user!, code, clientAddress(await headers()));
  redraw();
  return { ok: "Your authenticator app is set up. Signing in now asks for its code.", recoveryCodes, answeredAt: Date.now() };
});

/** Turning it off takes a current code from the app. */
export const removeTwoFactorAction = guardedAction("signed-in", codeSchema, async ({ code }, user) => {
  const db = await getDatabase();
  const requestHeaders = await headers();
  await removeFactor(db, user!, code, { headers: requestHeaders, address: clientAddress(requestHeaders) });
  redraw();
  const after = (await hasPasskey(db, user!.id))
    ? "after your password, signing in asks for your passkey"
    : "signing in asks for your password only";
  return { ok: `Your authenticator app is removed: ${after}.`, answeredAt: Date.now() };
});
