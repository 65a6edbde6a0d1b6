"use client";

import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Notice } from "@/components/ui/notice";
import { useFormAction } from "@/lib/browser/action";
import { DrawnForField } from "@/lib/browser/page-person";
import type { Enrolment } from "@/lib/console/auth/two-factor";
import { confirmTwoFactorAction, removeTwoFactorAction, startTwoFactorAction } from "@/lib/console/auth/two-factor-actions";
import type { ActionState } from "@/lib/console/bff/action";

type Confirmed = ActionState & { recoveryCodes?: string[] };

/**
 * An authenticator app for signing in (RFC 6238 codes): set up with the password, the key (a setup key to type for
 * those who cannot scan, and its otpauth:// URI) and a first code; then ten recovery codes, shown once. One component holds the
 * three forms, so the recovery codes stay on screen when the page is drawn again as "on".
 */
export function TwoFactorSection({ enrolment, email, hasPasskey }: { enrolment: Enrolment; email: string; hasPasskey: boolean }) {
  const start = useFormAction<ActionState>(startTwoFactorAction, {});
  const confirm = useFormAction<Confirmed>(confirmTwoFactorAction, {});
  const remove = useFormAction<ActionState>(removeTwoFactorAction, {});
  const codes = confirm.state.recoveryCodes;
  // What apps call the setup key: the base32 secret inside the key URI.
  const setupKey = enrolment.state === "pending" ? (new URL(enrolment.uri).searchParams.get("secret") ?? "") : "";

  return (
    <section aria-labelledby="two-factor-heading" className="flex max-w-2xl flex-col gap-4" id="two-factor">
      <div>
        <h2 id="two-factor-heading" className="text-lg font-semibold tracking-tight">
          Authenticator app
        </h2>
        <p className="mt-1 text-sm text-muted-foreground" data-testid="two-factor-state">
          {enrolment.state === "on"
            ? "On: signing in asks for a code from your app after your password."
            : hasPasskey
              ? "Off: after your password, signing in asks for your passkey."
              : "Off: signing in asks for your password only."}
        </p>
      </div>

      {codes && <RecoveryCodes codes={codes} email={email} />}

      {enrolment.state === "off" && (
        <form action={start.action} onSubmit={start.onSubmit} className="flex flex-wrap items-start gap-2" noValidate>
          <DrawnForField />
          <Field
            label="Your password"
            error={start.state.fieldErrors?.password ?? start.state.error}
            description="To set up an app, confirm it is you."
          >
            <Input name="password" type="password" autoComplete="current-password" className="w-full sm:w-72" />
          </Field>
          <Button type="submit" loading={start.pending} className="mt-5">
            Set up an authenticator app
          </Button>
        </form>
      )}

      {enrolment.state === "pending" && (
        <div className="flex flex-col gap-4">
          <ol className="list-decimal space-y-2 pl-5 text-sm">
            <li>In your authenticator app, scan this code, or add an account with the setup key below.</li>
            <li>Enter the 6-digit code the app shows.</li>
          </ol>
          {/* The server's SVG of the key URI (lib/console/auth/two-factor.ts, the qrcode package): nobody's text in it. */}
          <div
            role="img"
            aria-label="QR code of the key for your authenticator app"
            className="size-44 rounded-md bg-white p-1 [&_svg]:size-full"
            // biome-ignore lint/security/noDangerouslySetInnerHtml: an SVG the server drew from the key URI alone.
            dangerouslySetInnerHTML={{ __html: enrolment.qr }}
          />
          <div className="flex flex-col gap-1">
            <p className="text-xs font-medium text-muted-foreground">Setup key</p>
            <div className="flex items-start gap-2 rounded-md border border-border bg-muted p-3">
              {/* In groups of four, as apps show theirs; copied whole. */}
              <code className="min-w-0 flex-1 font-mono text-sm tracking-wide break-words" data-testid="setup-key">
                {setupKey.match(/.{1,4}/g)?.join(" ")}
              </code>
              <CopyButton value={setupKey} label="Copy the setup key" />
            </div>
          </div>
          <details className="text-sm">
            <summary className="cursor-pointer text-muted-foreground">The key as a link (otpauth://), for apps that take one</summary>
            <div className="mt-2 flex items-start gap-2 rounded-md border border-border bg-muted p-3">
              <code className="min-w-0 flex-1 font-mono text-xs break-all" data-testid="otpauth-uri">
                {enrolment.uri}
              </code>
              <CopyButton value={enrolment.uri} label="Copy the key URI" />
            </div>
          </details>
          <form action={confirm.action} onSubmit={confirm.onSubmit} className="flex flex-wrap items-start gap-2" noValidate>
            <DrawnForField />
            <Field label="Authentication code" error={confirm.state.fieldErrors?.code ?? confirm.state.error}>
              <Input name="code" inputMode="numeric" autoComplete="one-time-code" maxLength={6} className="max-w-40 font-mono" />
            </Field>
            <Button type="submit" variant="primary" loading={confirm.pending} className="mt-5">
              Confirm
            </Button>
          </form>
        </div>
      )}

      {enrolment.state === "on" && (
        <form action={remove.action} onSubmit={remove.onSubmit} className="flex flex-wrap items-start gap-2" noValidate>
          <DrawnForField />
          <Field
            label="Authentication code"
            error={remove.state.fieldErrors?.code ?? remove.state.error}
            description="To turn the app off, enter a code it shows now."
          >
            <Input name="code" inputMode="numeric" autoComplete="one-time-code" maxLength={6} className="max-w-40 font-mono" />
          </Field>
          <Button type="submit" loading={remove.pending} className="mt-5">
            Turn off
          </Button>
        </form>
      )}
      {/* Only what happened is said in green: the steps to set up are the list above. */}
      {remove.state.ok && enrolment.state === "off" && !codes && (
        <p role="status" className="text-sm text-success-text">
          {remove.state.ok}
        </p>
      )}
    </section>
  );
}

/** Shown once, right after the app is confirmed: each code signs in once, without the app. */
function RecoveryCodes({ codes, email }: { codes: string[]; email: string }) {
  const text = `Invoice Console recovery codes for ${email}\nEach code signs in once, without your authenticator app.\n\n${codes.join("\n")}\n`;
  return (
    <Notice tone="success" role="status" className="flex flex-col gap-3">
      <p className="font-medium">
        Your authenticator app is set up. Keep these recovery codes somewhere safe: this is the only time they are shown.
      </p>
      <ul aria-label="Recovery codes" className="grid grid-cols-2 gap-1 font-mono text-sm" data-testid="recovery-codes">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="flex flex-wrap items-center gap-3">
        <span className="inline-flex items-center gap-1 text-sm">
          <CopyButton value={codes.join("\n")} label="Copy the recovery codes" /> Copy
        </span>
        <a
          className="text-sm font-medium underline underline-offset-2"
          download="invoice-console-recovery-codes.txt"
          href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`}
        >
          Download as a .txt file
        </a>
      </div>
    </Notice>
  );
}
