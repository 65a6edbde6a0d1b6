"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { ConfirmDialog } from "@/components/ui/lazy-dialog";
import { Notice } from "@/components/ui/notice";
import { Select } from "@/components/ui/select";
import { runAction, useFormAction } from "@/lib/browser/action";
import { DrawnForField } from "@/lib/browser/page-person";
import type { ActionState } from "@/lib/console/bff/action";
import { addUserAction, type LinkActionState, setAccessAction, setRoleAction } from "@/lib/console/users/actions";
import { sinceAdded } from "@/lib/contract/added-person";
import { problemDetail } from "@/lib/contract/problem";
import { ROLE_DESCRIPTIONS, ROLE_LABELS, ROLES } from "@/lib/contract/roles";
import { IssuedLinkDetails } from "./account-link";

const roleOptions = ROLES.map((r) => ({ value: r, label: ROLE_LABELS[r] }));

export function RoleSelect({ email, role }: { email: string; role: string }) {
  const { state, action, onSubmit, pending } = useFormAction<ActionState>(setRoleAction, {});
  return (
    // Keyed by the saved role: a fresh form shows the new role.
    <form key={role} action={action} onSubmit={onSubmit} className="flex flex-wrap items-center gap-2 sm:flex-nowrap">
      <DrawnForField />
      <input type="hidden" name="email" value={email} />
      <Field label={`Role of ${email}`} hideLabel error={state.error}>
        <Select name="role" size="sm" defaultValue={role} options={roleOptions} className="w-[6.75rem] sm:w-28" />
      </Field>
      <Button type="submit" size="sm" loading={pending}>
        {pending ? "Saving…" : "Save"}
      </Button>
      {state.ok && (
        <span role="status" className="text-xs text-success-text">
          Saved
        </span>
      )}
    </form>
  );
}

/** Disable (sign-in refused, sessions ended) after asking; enable again in one click. */
export function AccessToggle({ email, disabled }: { email: string; disabled: boolean }) {
  const { state, action, onSubmit, pending } = useFormAction<ActionState>(setAccessAction, {});
  const [error, setError] = useState<string>();
  if (disabled) {
    return (
      <form action={action} onSubmit={onSubmit} className="flex items-center gap-2">
        <DrawnForField />
        <input type="hidden" name="email" value={email} />
        <input type="hidden" name="disabled" value="false" />
        <Button type="submit" size="sm" variant="ghost" loading={pending} aria-label={`Enable ${email}`}>
          {pending ? "Saving…" : "Enable"}
        </Button>
        {state.error && (
          <span role="alert" className="text-xs text-danger-text">
            {state.error}
          </span>
        )}
      </form>
    );
  }
  return (
    <ConfirmDialog
      tone="danger"
      trigger={
        <Button size="sm" variant="ghost" aria-label={`Disable ${email}`}>
          Disable
        </Button>
      }
      title={`Disable ${email}?`}
      description="They are signed out now and cannot sign in until enabled again."
      confirmLabel={`Disable ${email}`}
      pendingLabel="Disabling…"
      onOpenChange={() => setError(undefined)}
      onConfirm={async () => {
        const form = new FormData();
        form.set("email", email);
        form.set("disabled", "true");
        // The action revalidates /users; the row re-renders as disabled when it answers.
        const { problem } = await runAction(setAccessAction, form);
        if (problem) {
          setError(problemDetail(problem));
          return false;
        }
      }}
    >
      {error && (
        <Notice role="alert" tone="danger">
          {error}
        </Notice>
      )}
    </ConfirmDialog>
  );
}

/** Adds a person without a password: the answer is their invitation, shown once, with which they choose one. */
export function AddUserForm({ people }: { people: { email: string; role: string; disabled: boolean }[] }) {
  const { state, action, onSubmit, pending, sent } = useFormAction<LinkActionState>(addUserAction, {});
  const errors = state.fieldErrors ?? {};
  return (
    <Card className="self-start">
      <CardHeader>
        <CardTitle>Add a user</CardTitle>
      </CardHeader>
      <CardContent>
        {/* Keyed by the people added: empty after each; a refusal or an ended session keeps what was typed. */}
        <form key={sent} action={action} onSubmit={onSubmit} className="flex flex-col gap-3">
          <DrawnForField />
          {state.error && (
            <Notice role="alert" tone="danger">
              {state.error}
            </Notice>
          )}
          {state.ok && (
            <div className="flex flex-col gap-2">
              <Notice role="status" tone="success">
                {sinceAdded(state.added, people) ?? state.ok}
              </Notice>
              {state.link && <IssuedLinkDetails link={state.link} />}
            </div>
          )}
          <Field label="Name" error={errors.name}>
            <Input name="name" defaultValue={state.values?.name} autoComplete="off" />
          </Field>
          <Field label="Email" error={errors.email}>
            <Input name="email" type="email" defaultValue={state.values?.email} autoComplete="off" />
          </Field>
          <Field label="Role" error={errors.role} description={ROLE_DESCRIPTIONS_LINE}>
            <Select name="role" defaultValue={state.values?.role ?? "viewer"} options={roleOptions} className="w-full" />
          </Field>
          <p className="text-xs text-muted-foreground">They get a one-time invitation link and choose their own password with it.</p>
          <Button type="submit" variant="primary" loading={pending}>
            {pending ? "Adding…" : "Add user"}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}

/** What each role may do, under the role picker: option text cannot wrap, and phones cut long options. */
const ROLE_DESCRIPTIONS_LINE = (
  <span className="flex flex-col gap-0.5">
    {ROLES.map((r) => (
      <span key={r}>
        <span className="font-medium">{ROLE_LABELS[r]}</span> — {ROLE_DESCRIPTIONS[r]}
      </span>
    ))}
  </span>
);
