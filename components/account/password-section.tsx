"use client";

import { PASSWORD_HINT } from "@/components/auth/password-hint";
import { ActionOutcome } from "@/components/ui/action-outcome";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { useFormAction } from "@/lib/browser/action";
import { DrawnForField } from "@/lib/browser/page-person";
import { changePasswordAction } from "@/lib/console/auth/password-actions";
import type { ActionState } from "@/lib/console/bff/action";

/** The Account page's password: a new one, proving the current one; the person's other sessions are signed out. */
export function PasswordSection({ email, demo }: { email: string; demo: boolean }) {
  const { state, action, onSubmit, pending } = useFormAction<ActionState>(changePasswordAction, {});
  const errors = state.fieldErrors ?? {};
  return (
    <section aria-labelledby="password-heading" className="flex max-w-md flex-col gap-4" id="password">
      <div>
        <h2 id="password-heading" className="text-lg font-semibold tracking-tight">
          Password
        </h2>
        <p className="mt-1 text-sm text-muted-foreground">
          {demo
            ? "This demo account keeps its published password, so everyone can sign in to the demo. A person added on Users chooses a password of their own."
            : "Changing it signs you out everywhere else."}
        </p>
      </div>
      {/* Emptied after each answer: a password is never sent back to the page. */}
      {!demo && (
        <form key={state.answeredAt} action={action} onSubmit={onSubmit} className="flex flex-col gap-3" noValidate>
          <DrawnForField />
          {/* Password managers file the new password under this account. */}
          <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
          <ActionOutcome state={{ ok: state.ok, error: Object.keys(errors).length ? undefined : state.error }} />
          <Field id="current_password" label="Current password" error={errors.current_password}>
            <Input name="current_password" type="password" autoComplete="current-password" />
          </Field>
          <Field id="new_password" label="New password" error={errors.password} description={PASSWORD_HINT}>
            <Input name="password" type="password" autoComplete="new-password" />
          </Field>
          <Field id="new_password_again" label="The same password again" error={errors.password_again}>
            <Input name="password_again" type="password" autoComplete="new-password" />
          </Field>
          <div>
            <Button type="submit" loading={pending}>
              {pending ? "Changing…" : "Change password"}
            </Button>
          </div>
        </form>
      )}
    </section>
  );
}
