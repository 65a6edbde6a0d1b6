"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { guardedAction } from "@/lib/console/bff/action";
import { Problem } from "@/lib/contract/problem";
import { getDatabase } from "@/lib/platform/db";
import { type LinkKind, linkGoneSentence, readLink, spendLink } from "./account-links";
import { newPasswordSchema } from "./password-rules";
import { getAuth } from "./server";
import { auditSignIn, clientAddress } from "./sign-in";

const linkFormSchema = z.object({
  token: z.string().max(200),
  password: z.string().max(1024, { error: "must be at most 128 characters" }),
  password_again: z.string().max(1024),
});

/**
 * The invitation and reset pages' form. Nobody is signed in: the token is the credential, so it is checked
 * before anything else, then the password's rules; then the link is spent, the password set and the person
 * signed in here, landing on the overview.
 */
function setPasswordFromLink(kind: LinkKind) {
  return guardedAction("public", linkFormSchema, async ({ token, password, password_again }) => {
    const db = await getDatabase();
    const { state } = await readLink(db, kind, token);
    if (state !== "ok") throw Problem.of("link_gone", { detail: linkGoneSentence(kind, state) });
    const rules = newPasswordSchema.safeParse({ password, password_again });
    if (!rules.success) throw Problem.fromZod(rules.error, "password");
    const requestHeaders = await headers();
    const address = clientAddress(requestHeaders);
    const person = await spendLink(db, { kind, token, password, address });
    const signedIn = await (await getAuth()).api.signInEmail({ body: { email: person.email, password }, headers: requestHeaders });
    // A session made here is a sign-in like any other (a second factor, when the person has one, still asks first).
    if ("token" in signedIn && signedIn.token) {
      await auditSignIn(db, person, "sign_in", person.email, { address, method: kind === "invite" ? "invitation" : "reset_link" });
    }
    redirect("/overview");
  });
}

export const acceptInvitationAction = setPasswordFromLink("invite");
export const resetPasswordAction = setPasswordFromLink("reset");
