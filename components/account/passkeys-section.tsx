"use client";

import { useEffect, useState } from "react";
import { ActionOutcome } from "@/components/ui/action-outcome";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { DateTime } from "@/components/ui/date-time";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { runAction, useFormAction } from "@/lib/browser/action";
import { DrawnForField } from "@/lib/browser/page-person";
import { browserSupportsWebAuthn, createPasskey } from "@/lib/browser/passkey";
import { addPasskeyAction, passkeyRegistrationAction, removePasskeyAction } from "@/lib/console/auth/passkey-actions";
import type { PasskeyEntry } from "@/lib/console/auth/passkeys";
import type { ActionState } from "@/lib/console/bff/action";
import { problemToFields } from "@/lib/contract/problem-to-fields";

/**
 * A person's passkeys: each with its name, when it was added and last used, and Remove (with the password); and a
 * form that adds one (the password, then the browser's own prompt). Adding needs script (WebAuthn is a browser API);
 * removing does not.
 */
export function PasskeysSection({ passkeys, suggestedName }: { passkeys: PasskeyEntry[]; suggestedName: string }) {
  const remove = useFormAction<ActionState>(removePasskeyAction, {});
  return (
    <section aria-labelledby="passkeys-heading" className="flex max-w-2xl flex-col gap-4" id="passkeys">
      <div>
        <h2 id="passkeys-heading" className="text-lg font-semibold tracking-tight">
          Passkeys
        </h2>
        <p className="mt-1 text-sm text-muted-foreground">
          Sign in with your fingerprint, face, screen lock or security key instead of your password. A passkey also counts as your second
          factor after a password.
        </p>
      </div>
      {passkeys.length > 0 && (
        // Keyed by each removal: the password typed for it does not stay on screen.
        <form
          key={remove.sent}
          action={remove.action}
          onSubmit={remove.onSubmit}
          className="flex flex-col gap-3"
          aria-label="Remove a passkey"
        >
          {/* The form's default button, disabled: Enter in the password field removes nothing; each Remove names its passkey. */}
          <button type="submit" disabled hidden aria-hidden tabIndex={-1} />
          <DrawnForField />
          <ActionOutcome state={remove.state.fieldErrors ? {} : remove.state} />
          <ul aria-label="Your passkeys" className="divide-y divide-border rounded-md border border-border">
            {passkeys.map((passkey) => (
              <li key={passkey.id} className="flex flex-wrap items-start justify-between gap-3 p-3" data-testid="passkey">
                <div className="min-w-0">
                  <p className="flex flex-wrap items-center gap-2 text-sm font-medium [overflow-wrap:anywhere]">
                    <bdi>{passkey.name}</bdi>
                    {passkey.synced && <Badge tone="neutral">Synced</Badge>}
                  </p>
                  <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-xs text-muted-foreground">
                    <dt>Added</dt>
                    <dd className="text-foreground">
                      <DateTime iso={passkey.createdAt} />
                    </dd>
                    <dt>Last used</dt>
                    <dd className="text-foreground">{passkey.lastUsedAt ? <DateTime iso={passkey.lastUsedAt} /> : "Not yet"}</dd>
                  </dl>
                </div>
                <Button
                  type="submit"
                  size="sm"
                  name="id"
                  value={passkey.id}
                  disabled={remove.pending}
                  aria-label={`Remove passkey ${passkey.name}`}
                >
                  Remove
                </Button>
              </li>
            ))}
          </ul>
          <Field
            label="Your password"
            error={remove.state.fieldErrors?.password}
            description="To remove a passkey, type your password, then choose Remove beside it."
          >
            <Input name="password" type="password" autoComplete="current-password" className="w-full sm:w-56" />
          </Field>
        </form>
      )}
      {passkeys.length === 0 && remove.state.ok && <ActionOutcome state={remove.state} />}
      {passkeys.length > 0 && <h3 className="border-t border-border pt-4 text-sm font-semibold">Add another passkey</h3>}
      <AddPasskeyForm suggestedName={suggestedName} />
    </section>
  );
}

type Failure = { error?: string; fieldErrors?: Record<string, string> };

function AddPasskeyForm({ suggestedName }: { suggestedName: string }) {
  const [supported, setSupported] = useState<boolean | null>(null);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Failure & { ok?: string }>({});
  const [sent, setSent] = useState(0);
  useEffect(() => setSupported(browserSupportsWebAuthn()), []);

  async function add(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    const form = new FormData(event.currentTarget);
    setBusy(true);
    try {
      setOutcome(await addWith(form));
    } finally {
      setBusy(false);
    }
  }

  async function addWith(form: FormData): Promise<Failure & { ok?: string }> {
    const started = await runAction(passkeyRegistrationAction, form);
    if (started.problem) return failureOf(started.problem);
    const ceremony = await createPasskey(started.answer.options);
    if (ceremony.error !== undefined) return { error: ceremony.error };
    const saved = new FormData();
    saved.set("challengeId", started.answer.challengeId);
    saved.set("response", ceremony.response);
    saved.set("name", String(form.get("name") ?? ""));
    const added = await runAction(addPasskeyAction, saved);
    if (added.problem) return failureOf(added.problem);
    setSent((n) => n + 1);
    return { ok: added.answer.ok };
  }

  return (
    <form key={sent} onSubmit={add} className="flex flex-col gap-3" noValidate aria-label="Add a passkey">
      {outcome.error && !outcome.fieldErrors && <ActionOutcome state={{ error: outcome.error }} />}
      {outcome.ok && <ActionOutcome state={{ ok: outcome.ok }} />}
      <div className="flex flex-wrap items-start gap-2">
        <Field label="Name" error={outcome.fieldErrors?.name} description="So you can tell your passkeys apart.">
          <Input name="name" defaultValue={suggestedName} maxLength={60} className="w-full sm:w-56" autoComplete="off" />
        </Field>
        <Field label="Your password" error={outcome.fieldErrors?.password} description="To add a passkey, confirm it is you.">
          <Input name="password" type="password" autoComplete="current-password" className="w-full sm:w-56" />
        </Field>
        <Button type="submit" loading={busy} disabled={!supported} className="mt-5">
          Add a passkey
        </Button>
      </div>
      {supported === false && <p className="text-sm text-muted-foreground">This browser cannot use passkeys.</p>}
      <noscript>
        <p className="text-sm text-muted-foreground">
          Adding a passkey needs JavaScript: your browser holds the passkey and asks you for it.
        </p>
      </noscript>
    </form>
  );
}

function failureOf(problem: { detail?: string; title: string; errors?: { pointer: string; detail: string }[] }): Failure {
  const { fields } = problemToFields(problem, { fields: ["name", "password"] });
  return Object.keys(fields).length ? { fieldErrors: fields } : { error: problem.detail ?? problem.title };
}
