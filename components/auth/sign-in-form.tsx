"use client";

import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Notice } from "@/components/ui/notice";
import { signIn, signInCode } from "@/lib/console/auth/actions";
import { passkeySignInAction } from "@/lib/console/auth/passkey-actions";
import type { SecondFactors } from "@/lib/console/auth/second-factors";
import type { ActionState } from "@/lib/console/bff/action";
import { PasskeyButton } from "./passkey-button";

type DemoUser = { email: string; password: string; role: string; description: string };
type SignInState = ActionState & { step?: "code"; factors?: SecondFactors };

/** The sign-in page's passkey step: the signed answer to its action, which signs in and goes on to `next`. */
function finishWithPasskey(next: string) {
  return async (challengeId: string, response: string) => {
    const form = new FormData();
    form.set("challengeId", challengeId);
    form.set("response", response);
    form.set("next", next);
    return (await passkeySignInAction(form))?.error;
  };
}

/**
 * Two steps, each a plain form that works before scripts load: email and password, then, for a person with a
 * second factor, its code (or a recovery code) or their passkey. A passkey also signs in without the password.
 * `codeStep`: the server found a pending sign-in already, and these are the person's factors.
 */
export function SignInForm({
  next,
  demoUsers,
  notice,
  codeStep = null,
}: {
  next: string;
  demoUsers: DemoUser[];
  notice?: string;
  codeStep?: SecondFactors | null;
}) {
  const [passwordState, action, passwordPending] = useActionState<SignInState, FormData>(signIn, {});
  const [codeState, codeAction, codePending] = useActionState<SignInState, FormData>(signInCode, {});
  // The latest answer decides the step; a code answer without `step` (too late, too many) starts over.
  const latest = (codeState.answeredAt ?? 0) > (passwordState.answeredAt ?? 0) ? codeState : passwordState;
  const onCodeStep = latest.answeredAt ? latest.step === "code" : codeStep !== null;
  const state = latest;
  const pending = passwordPending || codePending;
  if (onCodeStep) {
    const factors = passwordState.factors ?? codeStep ?? { app: true, passkey: false };
    return (
      <CodeStep next={next} factors={factors} state={codeState.answeredAt ? codeState : {}} action={codeAction} pending={codePending} />
    );
  }

  return (
    <>
      {notice && !state.error && (
        <p role="status" className="mt-2 text-sm text-muted-foreground">
          {notice}
        </p>
      )}
      <form action={action} className="mt-6 flex flex-col gap-4" noValidate>
        <input type="hidden" name="next" value={next} />
        {state.error && (
          <Notice role="alert" tone="danger">
            {state.error}
          </Notice>
        )}
        <Field id="email" label="Email" error={passwordState.fieldErrors?.email} className="[&>label]:text-sm">
          <Input name="email" type="email" autoComplete="username" defaultValue={passwordState.values?.email} size="lg" autoFocus />
        </Field>
        <Field id="password" label="Password" error={passwordState.fieldErrors?.password} className="[&>label]:text-sm">
          <Input name="password" type="password" autoComplete="current-password" size="lg" />
        </Field>
        <Button type="submit" variant="primary" size="lg" loading={pending}>
          {pending ? "Signing in…" : "Sign in"}
        </Button>
      </form>
      <div className="mt-3">
        <PasskeyButton label="Sign in with a passkey" finish={finishWithPasskey(next)} disabled={pending} />
      </div>

      {demoUsers.length > 0 && (
        <section aria-labelledby="demo-heading" className="mt-10 rounded-lg border border-warning-border bg-warning-muted p-4">
          <h2 id="demo-heading" className="text-sm font-semibold text-warning-text">
            Sandbox demo accounts
          </h2>
          <p className="mt-1 text-xs text-warning-text">
            One per role, password <code className="font-mono">sandbox-demo</code>. They exist only on the embedded sandbox.
          </p>
          <ul className="mt-3 flex flex-col gap-2">
            {demoUsers.map((user) => (
              <li key={user.email}>
                <form action={action}>
                  <input type="hidden" name="next" value={next} />
                  <input type="hidden" name="email" value={user.email} />
                  <input type="hidden" name="password" value={user.password} />
                  {/* A card-sized choice: a secondary button's colours, but two lines of text and the full width. */}
                  <button
                    type="submit"
                    disabled={pending}
                    className="flex w-full items-center justify-between gap-3 rounded-md border border-input bg-card px-3.5 py-2 text-left text-sm font-medium text-card-foreground shadow-xs transition-colors hover:bg-accent hover:text-accent-foreground focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring disabled:pointer-events-none disabled:opacity-60"
                  >
                    <span>
                      <span className="font-medium">Sign in as {user.role}</span>
                      <span className="block text-xs font-normal text-muted-foreground">{user.description}</span>
                    </span>
                    <span className="font-mono text-xs font-normal text-muted-foreground">{user.email}</span>
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

function CodeStep({
  next,
  factors,
  state,
  action,
  pending,
}: {
  next: string;
  factors: SecondFactors;
  state: SignInState;
  action: (form: FormData) => void;
  pending: boolean;
}) {
  const restart = (
    <a href={`/login?restart=1&next=${encodeURIComponent(next)}`} className="text-sm underline underline-offset-2">
      Start again with your email and password
    </a>
  );
  const passkey = factors.passkey && (
    <PasskeyButton
      label="Use your passkey"
      finish={finishWithPasskey(next)}
      disabled={pending}
      variant={factors.app ? "secondary" : "primary"}
    />
  );
  if (!factors.app) {
    return (
      <div className="mt-6 flex flex-col gap-4">
        <p className="text-sm text-muted-foreground">Your password is right. Confirm it is you with your passkey.</p>
        {state.error && (
          <Notice role="alert" tone="danger">
            {state.error}
          </Notice>
        )}
        {passkey}
        <noscript>
          <p className="text-sm">A passkey needs JavaScript: turn it on for this page, then sign in again.</p>
        </noscript>
        {restart}
      </div>
    );
  }
  return (
    <form action={action} className="mt-6 flex flex-col gap-4" noValidate>
      <input type="hidden" name="next" value={next} />
      <p className="text-sm text-muted-foreground">
        Your password is right. Enter the code your authenticator app shows now{factors.passkey ? ", or use your passkey" : ""}.
      </p>
      {state.error && (
        <Notice role="alert" tone="danger">
          {state.error}
        </Notice>
      )}
      <Field
        id="code"
        label="Authentication code"
        error={state.fieldErrors?.code}
        description="The 6-digit code from your app, or one of your recovery codes."
        className="[&>label]:text-sm"
      >
        <Input name="code" autoComplete="one-time-code" autoCapitalize="off" spellCheck={false} size="lg" className="font-mono" autoFocus />
      </Field>
      <Button type="submit" variant="primary" size="lg" loading={pending}>
        {pending ? "Checking…" : "Sign in"}
      </Button>
      {passkey}
      {restart}
    </form>
  );
}
