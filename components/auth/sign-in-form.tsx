"use client";

import { useActionState } from "react";
import { signIn } from "@/lib/auth/actions";
import type { ActionState } from "@/lib/bff/action";
import { Button } from "@/components/ui/button";

type DemoUser = { email: string; password: string; role: string; description: string };

const inputClass =
  "h-10 rounded-md border border-zinc-300 bg-white px-3 text-sm shadow-xs aria-invalid:border-rose-500 aria-invalid:ring-1 aria-invalid:ring-rose-500";

export function SignInForm({ next, demoUsers, notice }: { next: string; demoUsers: DemoUser[]; notice?: string }) {
  const [state, action, pending] = useActionState<ActionState, FormData>(signIn, {});

  return (
    <>
      {notice && !state.error && (
        <p role="status" className="mt-2 text-sm text-zinc-600">
          {notice}
        </p>
      )}
      <form action={action} className="mt-6 flex flex-col gap-4" noValidate>
        <input type="hidden" name="next" value={next} />
        {state.error && (
          <p role="alert" className="rounded-md border border-rose-200 bg-rose-50 px-3 py-2 text-sm text-rose-800">
            {state.error}
          </p>
        )}
        <label className="flex flex-col gap-1 text-sm font-medium text-zinc-700">
          Email
          <input
            name="email"
            type="email"
            autoComplete="username"
            defaultValue={state.values?.email}
            aria-invalid={state.fieldErrors?.email ? true : undefined}
            aria-describedby={state.fieldErrors?.email ? "email-error" : undefined}
            className={inputClass}
            autoFocus
          />
          {state.fieldErrors?.email && (
            <span id="email-error" className="text-xs font-normal text-rose-700">
              {state.fieldErrors.email}
            </span>
          )}
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium text-zinc-700">
          Password
          <input
            name="password"
            type="password"
            autoComplete="current-password"
            aria-invalid={state.fieldErrors?.password ? true : undefined}
            aria-describedby={state.fieldErrors?.password ? "password-error" : undefined}
            className={inputClass}
          />
          {state.fieldErrors?.password && (
            <span id="password-error" className="text-xs font-normal text-rose-700">
              {state.fieldErrors.password}
            </span>
          )}
        </label>
        <Button type="submit" variant="primary" className="h-10" disabled={pending}>
          {pending ? "Signing in…" : "Sign in"}
        </Button>
      </form>

      {demoUsers.length > 0 && (
        <section aria-labelledby="demo-heading" className="mt-10 rounded-lg border border-amber-200 bg-amber-50 p-4">
          <h2 id="demo-heading" className="text-sm font-semibold text-amber-900">
            Sandbox demo accounts
          </h2>
          <p className="mt-1 text-xs text-amber-800">
            One per role, password <code className="font-mono">sandbox-demo</code>. They exist only on the embedded sandbox.
          </p>
          <ul className="mt-3 flex flex-col gap-2">
            {demoUsers.map((user) => (
              <li key={user.email}>
                <form action={action}>
                  <input type="hidden" name="next" value={next} />
                  <input type="hidden" name="email" value={user.email} />
                  <input type="hidden" name="password" value={user.password} />
                  <button
                    type="submit"
                    disabled={pending}
                    className="flex w-full items-center justify-between gap-3 rounded-md border border-amber-200 bg-white px-3 py-2 text-left text-sm hover:border-amber-400"
                  >
                    <span>
                      <span className="font-medium">Sign in as {user.role}</span>
                      <span className="block text-xs text-zinc-600">{user.description}</span>
                    </span>
                    <span className="font-mono text-xs text-zinc-500">{user.email}</span>
                  </button>
                </form>
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}
