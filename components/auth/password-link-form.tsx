"use client";

import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Notice } from "@/components/ui/notice";
import { acceptInvitationAction, resetPasswordAction } from "@/lib/console/auth/link-actions";
import type { ActionState } from "@/lib/console/bff/action";
import { PASSWORD_HINT } from "./password-hint";

/**
 * Choosing a password from a one-time link. Like the sign-in form, nobody is signed in, so there is no session to
 * lose and no draft to keep: a plain action form that posts without script too.
 */
export function PasswordLinkForm({ kind, token, email }: { kind: "invite" | "reset"; token: string; email: string }) {
  const [state, action, pending] = useActionState<ActionState, FormData>(
    kind === "invite" ? acceptInvitationAction : resetPasswordAction,
    {},
  );
  const errors = state.fieldErrors ?? {};
  return (
    <form action={action} className="mt-6 flex flex-col gap-4" noValidate>
      <input type="hidden" name="token" value={token} />
      {/* Password managers file the new password under this account. */}
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      {state.error && (
        <Notice role="alert" tone="danger">
          {state.error}
        </Notice>
      )}
      <Field
        id="password"
        label={kind === "invite" ? "Password" : "New password"}
        error={errors.password}
        description={PASSWORD_HINT}
        className="[&>label]:text-sm"
      >
        <Input name="password" type="password" autoComplete="new-password" size="lg" autoFocus />
      </Field>
      <Field id="password_again" label="The same password again" error={errors.password_again} className="[&>label]:text-sm">
        <Input name="password_again" type="password" autoComplete="new-password" size="lg" />
      </Field>
      <Button type="submit" variant="primary" size="lg" loading={pending}>
        {pending ? "Saving…" : "Save password and sign in"}
      </Button>
    </form>
  );
}
