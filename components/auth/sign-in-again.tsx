"use client";

import { useRouter } from "next/navigation";
import { type FormEvent, useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Notice } from "@/components/ui/notice";
import { NOT_SIGNED_IN, type SignInAgainOutcome } from "@/lib/browser/session-ended";
import type { SecondFactors } from "@/lib/console/auth/second-factors";
import { signInChoicesAction } from "@/lib/console/auth/sign-in-again";
import { PasskeyButton } from "./passkey-button";

type Demo = { role: string; email: string; description: string };
type Failure = { error?: string; fieldErrors?: Record<string, string> };

export type SignInAgainProps = {
  /** Who the page was drawn for: someone else signing in has the page drawn again for them. */
  email: string;
  /** Open: a change refused for an ended session waits for the outcome. */
  asking: boolean;
  onDone: (outcome: SignInAgainOutcome) => void;
};

/**
 * Signing in again without leaving the page, mounted once by the console layout (lazy-sign-in-again.tsx, which
 * offers it to lib/browser/session-ended.ts): a change refused with a 401 (lib/browser/action.ts) opens it,
 * waits until the person has signed in (email and password, or a demo account on the embedded sandbox), and
 * is then sent once more: nothing typed is lost. Closing it leaves everything as it was, unsent. It answers who
 * signed in; the change compares that with the person it was sent for (lib/browser/action.ts), and the server
 * refuses a change drawn for someone else anyway (lib/contract/drawn-for.ts).
 */
export function SignInAgain({ email: signedInAs, asking: open, onDone }: SignInAgainProps) {
  const [demo, setDemo] = useState<Demo[]>([]);
  const [failure, setFailure] = useState<Failure>({});
  const [pending, setPending] = useState(false);
  const [email, setEmail] = useState("");
  // The password was right and the person's second factor is asked for next: these are the ones they have.
  const [factors, setFactors] = useState<SecondFactors | null>(null);
  const codeStep = factors !== null;
  const router = useRouter();

  useEffect(() => {
    if (!open) return;
    setFailure({});
    setFactors(null);
    signInChoicesAction(new FormData()).then(
      (answer) => "demo" in answer && setDemo(answer.demo),
      () => undefined,
    );
  }, [open]);

  /** Signed in as `email`: someone else has the page (its header, what they may do) drawn again; typing stays. */
  function signedIn(email: string) {
    onDone({ signedInAs: email });
    if (email !== signedInAs.toLowerCase()) router.refresh();
  }

  /** Signs in through POST /api/session/sign-in (a route: see lib/console/auth/sign-in-again-route.ts). */
  async function send(body: Record<string, unknown>) {
    const response = await fetch("/api/session/sign-in", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return (await response.json()) as {
      ok?: boolean;
      email?: string;
      step?: "code";
      factors?: SecondFactors;
      error?: string;
      title?: string;
      detail?: string;
    } & Failure;
  }

  /** A passkey in place of the password, or of the code: signed in, or the sentence saying why not. */
  async function finishWithPasskey(challengeId: string, response: string): Promise<string | undefined> {
    const answer = await send({ challengeId, response });
    if (answer.ok) signedIn(answer.email ?? "");
    else return answer.error ?? "Signing in with a passkey failed. Try again.";
  }

  async function signIn(form: FormData) {
    setPending(true);
    setFailure({});
    try {
      const answer = await send(Object.fromEntries(form));
      if (answer.ok) signedIn(answer.email ?? "");
      else if (answer.step === "code" || (codeStep && !answer.error)) {
        if (answer.step === "code") setFactors(answer.factors ?? factors ?? { app: true, passkey: false });
        setFailure(answer);
      } else if (codeStep) {
        // Too late or too many codes: from the start again.
        setFactors(null);
        setFailure(answer);
      } else
        setFailure(answer.error ? answer : { error: [answer.title, answer.detail].filter(Boolean).join(". ") || "Signing in failed." });
    } catch {
      setFailure({ error: "The console cannot be reached. Check your connection and try again." });
    } finally {
      setPending(false);
    }
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void signIn(new FormData(event.currentTarget));
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next && !pending) onDone({ signedInAs: null, whyNotSent: NOT_SIGNED_IN });
      }}
    >
      <DialogContent aria-describedby="sign-in-again-description">
        <DialogHeader>
          <DialogTitle>Your session ended</DialogTitle>
          <DialogDescription id="sign-in-again-description">
            Sign in again to finish; what you typed is kept, and nothing was changed yet.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} className="flex flex-col gap-4" noValidate aria-label="Sign in again">
          {failure.error && (
            <Notice role="alert" tone="danger">
              {failure.error}
            </Notice>
          )}
          {factors?.passkey && (
            <PasskeyButton
              label="Use your passkey"
              finish={finishWithPasskey}
              disabled={pending}
              variant={factors.app ? "secondary" : "primary"}
            />
          )}
          {factors?.app && (
            <Field
              label="Authentication code"
              error={failure.fieldErrors?.code}
              description="The 6-digit code from your authenticator app, or one of your recovery codes."
              className="[&>label]:text-sm"
            >
              <Input name="code" autoComplete="one-time-code" autoCapitalize="off" spellCheck={false} className="font-mono" autoFocus />
            </Field>
          )}
          {!codeStep && (
            <>
              <Field label="Email" error={failure.fieldErrors?.email} className="[&>label]:text-sm">
                <Input name="email" type="email" autoComplete="username" value={email} onChange={(e) => setEmail(e.target.value)} />
              </Field>
              <Field label="Password" error={failure.fieldErrors?.password} className="[&>label]:text-sm">
                <Input name="password" type="password" autoComplete="current-password" />
              </Field>
            </>
          )}
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button type="button" onClick={() => onDone({ signedInAs: null, whyNotSent: NOT_SIGNED_IN })} disabled={pending}>
              Not now
            </Button>
            {(!codeStep || factors.app) && (
              <Button type="submit" variant="primary" loading={pending}>
                {pending ? "Signing in…" : "Sign in and finish"}
              </Button>
            )}
          </div>
          {!codeStep && <PasskeyButton label="Sign in with a passkey" finish={finishWithPasskey} disabled={pending} />}
        </form>
        {demo.length > 0 && !codeStep && (
          <section aria-label="Sandbox demo accounts" className="rounded-lg border border-warning-border bg-warning-muted p-3">
            <p className="text-xs text-warning-text">Sandbox demo accounts, one per role:</p>
            <ul className="mt-2 grid grid-cols-2 gap-2">
              {demo.map((account) => (
                <li key={account.role}>
                  <Button
                    type="button"
                    size="sm"
                    className="w-full"
                    disabled={pending}
                    title={account.description}
                    onClick={() => {
                      const form = new FormData();
                      form.set("demo", account.role);
                      void signIn(form);
                    }}
                  >
                    Sign in as {account.role}
                  </Button>
                </li>
              ))}
            </ul>
          </section>
        )}
      </DialogContent>
    </Dialog>
  );
}
