"use server";

import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import { revalidatePath } from "next/cache";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { guardedAction } from "@/lib/console/bff/action";
import { Problem } from "@/lib/contract/problem";
import { getDatabase } from "@/lib/platform/db";
import {
  addPasskey,
  authenticationOptions,
  PASSKEY_NAME_MAX,
  parseCredential,
  registrationOptions,
  removePasskey,
  signInWithPasskey,
} from "./passkeys";
import { givenPasswordField } from "./password-rules";
import { SECOND_FACTOR_SETUP_PATH, safeNextPath } from "./session";
import { clientAddress } from "./sign-in";
import { pendingSignIn } from "./sign-in-code";
import { verifyCurrentPassword } from "./signed-in-proof";

const redraw = () => {
  revalidatePath("/account");
  revalidatePath(SECOND_FACTOR_SETUP_PATH);
};

const fieldProblem = (field: string, detail: string) =>
  Problem.of("validation_failed", { detail, errors: [{ pointer: `/${field}`, code: "invalid", detail }] });

const nameField = z
  .string()
  .trim()
  .min(1, { error: "Name the passkey, for example after the device or the password manager that holds it." })
  .max(PASSKEY_NAME_MAX, { error: `A passkey's name has at most ${PASSKEY_NAME_MAX} characters.` })
  // A name is shown in lists and the audit log: no control characters.
  .regex(/^[^\p{Cc}]*$/u, { error: "Use letters, digits and punctuation only." });

/**
 * Adding a passkey, step one: the password confirms it is the person (not a session left open), then the
 * options the browser hands its authenticator. Open to a person who must still set up a second factor.
 */
export const passkeyRegistrationAction = guardedAction(
  "second-factor-setup",
  z.object({ password: givenPasswordField, name: nameField }),
  async ({ password }, user) => {
    const requestHeaders = await headers();
    const db = await getDatabase();
    const context = { headers: requestHeaders, address: clientAddress(requestHeaders), purpose: "passkey" } as const;
    if (!(await verifyCurrentPassword(db, user!, password, context))) throw fieldProblem("password", "That password is not right.");
    return { ...(await registrationOptions(db, user!)), answeredAt: Date.now() };
  },
);

/** Step two: the authenticator's answer is checked and the passkey kept under its name. */
export const addPasskeyAction = guardedAction(
  "second-factor-setup",
  z.object({ challengeId: z.string().max(1_024), response: z.string().max(32_768), name: nameField }),
  async ({ challengeId, response, name }, user) => {
    const credential = parseCredential<RegistrationResponseJSON>(response);
    if (!credential) throw Problem.of("validation_failed", { detail: "Your browser's answer could not be read. Try again.", errors: [] });
    const added = await addPasskey(await getDatabase(), user!, { challengeId, response: credential, name }, clientAddress(await headers()));
    redraw();
    return { ok: `Passkey “${added.name}” added. You can sign in with it instead of your password.`, answeredAt: Date.now() };
  },
);

/** Removing one takes the password too: a session left open must not strip a second factor away. */
export const removePasskeyAction = guardedAction(
  "signed-in",
  z.object({ id: z.string().max(64), password: givenPasswordField }),
  async ({ id, password }, user) => {
    const requestHeaders = await headers();
    const db = await getDatabase();
    const address = clientAddress(requestHeaders);
    const context = { headers: requestHeaders, address, purpose: "passkey_removal" } as const;
    if (!(await verifyCurrentPassword(db, user!, password, context))) throw fieldProblem("password", "That password is not right.");
    const name = await removePasskey(db, user!, id, address);
    redraw();
    return { ok: `Passkey “${name}” removed.`, answeredAt: Date.now() };
  },
);

/** Signing in with a passkey, step one: a challenge; for a pending password sign-in, for that person's passkeys only. */
export const passkeySignInOptionsAction = guardedAction("public", z.object({}), async () => {
  const pending = await pendingSignIn(await headers());
  return { ...(await authenticationOptions(await getDatabase(), pending?.id ?? null)), answeredAt: Date.now() };
});

/** Step two: the signed challenge signs the person in, then on to where they were going. */
export const passkeySignInAction = guardedAction(
  "public",
  z.object({ challengeId: z.string().max(1_024), response: z.string().max(32_768), next: z.string().optional() }),
  async ({ challengeId, response, next }) => {
    const credential = parseCredential<AuthenticationResponseJSON>(response);
    if (!credential) return { error: "Your browser's answer could not be read. Try again.", answeredAt: Date.now() };
    const result = await signInWithPasskey({ challengeId, response: credential }, await headers());
    if (!result.ok) return { error: result.error, answeredAt: Date.now() };
    redirect(safeNextPath(next));
  },
);
