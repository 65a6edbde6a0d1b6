"use client";

import { useActionState } from "react";
import type { ActionState } from "@/lib/bff/action";
import { addUserAction, setAccessAction, setRoleAction } from "@/lib/users/actions";
import { Button } from "@/components/ui/button";
import { ROLE_DESCRIPTIONS, ROLE_LABELS, ROLES } from "@/lib/auth/roles";

const input = "h-9 rounded-md border border-zinc-300 bg-white px-2.5 text-sm font-normal shadow-xs aria-invalid:border-rose-500";

export function RoleSelect({ email, role }: { email: string; role: string }) {
  const [state, action, pending] = useActionState<ActionState, FormData>(setRoleAction, {});
  return (
    // Keyed by the saved role: React resets a form after its action, so a fresh form shows the new role.
    <form key={role} action={action} className="flex items-center gap-2">
      <input type="hidden" name="email" value={email} />
      <label className="sr-only" htmlFor={`role-${email}`}>Role of {email}</label>
      <select id={`role-${email}`} name="role" defaultValue={role} className="h-8 rounded-md border border-zinc-300 bg-white pr-7 pl-2 text-sm">
        {ROLES.map((r) => (
          <option key={r} value={r}>{ROLE_LABELS[r]}</option>
        ))}
      </select>
      <Button type="submit" size="sm" disabled={pending}>{pending ? "Saving…" : "Save"}</Button>
      {state.error && <span role="alert" className="text-xs text-rose-700">{state.error}</span>}
      {state.ok && <span role="status" className="text-xs text-emerald-700">Saved</span>}
    </form>
  );
}

/** Disable (sign-in refused, sessions ended) or enable again; asks before disabling. */
export function AccessToggle({ email, disabled }: { email: string; disabled: boolean }) {
  const [state, action, pending] = useActionState<ActionState, FormData>(setAccessAction, {});
  return (
    <form
      action={action}
      onSubmit={(e) => {
        if (!disabled && !window.confirm(`Disable ${email}? They are signed out now and cannot sign in until enabled again.`)) e.preventDefault();
      }}
      className="flex items-center gap-2"
    >
      <input type="hidden" name="email" value={email} />
      <input type="hidden" name="disabled" value={disabled ? "false" : "true"} />
      <Button type="submit" size="sm" variant="ghost" disabled={pending} aria-label={`${disabled ? "Enable" : "Disable"} ${email}`}>
        {pending ? "Saving…" : disabled ? "Enable" : "Disable"}
      </Button>
      {state.error && <span role="alert" className="text-xs text-rose-700">{state.error}</span>}
    </form>
  );
}

export function AddUserForm() {
  const [state, action, pending] = useActionState<ActionState, FormData>(addUserAction, {});
  const field = (name: string) => ({
    name,
    defaultValue: state.values?.[name],
    "aria-invalid": state.fieldErrors?.[name] ? true : undefined,
    "aria-describedby": state.fieldErrors?.[name] ? `${name}-error` : undefined,
  });
  const error = (name: string) =>
    state.fieldErrors?.[name] && <span id={`${name}-error`} className="text-xs font-normal text-rose-700">{state.fieldErrors[name]}</span>;

  return (
    <form key={state.answeredAt} action={action} className="flex flex-col gap-3 self-start rounded-lg border border-zinc-200 bg-white p-5 shadow-xs">
      <h2 className="text-sm font-semibold">Add a user</h2>
      {state.error && <p role="alert" className="rounded-md bg-rose-50 px-3 py-2 text-sm text-rose-800">{state.error}</p>}
      {state.ok && <p role="status" className="rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-800">{state.ok}</p>}
      <label className="flex flex-col gap-1 text-xs font-medium text-zinc-600">Name<input {...field("name")} className={input} />{error("name")}</label>
      <label className="flex flex-col gap-1 text-xs font-medium text-zinc-600">Email<input {...field("email")} type="email" className={input} />{error("email")}</label>
      <div className="flex flex-col gap-1 text-xs font-medium text-zinc-600">
        <label htmlFor="new-user-role">Role</label>
        <select id="new-user-role" {...field("role")} defaultValue={state.values?.role ?? "viewer"} className={input}>
          {ROLES.map((r) => (
            <option key={r} value={r}>{ROLE_LABELS[r]} — {ROLE_DESCRIPTIONS[r]}</option>
          ))}
        </select>
      </div>
      <label className="flex flex-col gap-1 text-xs font-medium text-zinc-600">
        Initial password
        <input {...field("password")} type="password" autoComplete="new-password" className={input} />
        {error("password") || <span className="font-normal text-zinc-500">At least 8 characters. Share it privately.</span>}
      </label>
      <Button type="submit" variant="primary" disabled={pending}>{pending ? "Adding…" : "Add user"}</Button>
    </form>
  );
}
