"use client";

import { unstable_rethrow } from "next/navigation";
import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { browserSupportsWebAuthn, getPasskeyAssertion } from "@/lib/browser/passkey";
import { passkeySignInOptionsAction } from "@/lib/console/auth/passkey-actions";

/**
 * Signing in with a passkey: a challenge from the server, the browser's own prompt, then `finish` with the
 * signed answer (the sign-in page's action, or the sign-in-again dialog's route), which answers an error or
 * nothing. Needs script: disabled until it has loaded.
 */
export function PasskeyButton({
  label,
  finish,
  disabled = false,
  variant = "secondary",
}: {
  label: string;
  finish: (challengeId: string, response: string) => Promise<string | undefined>;
  disabled?: boolean;
  variant?: "primary" | "secondary";
}) {
  // Drawn from the start, so nothing moves when scripts load; gone only where the browser has no passkeys.
  const [supported, setSupported] = useState<boolean | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  useEffect(() => setSupported(browserSupportsWebAuthn()), []);
  if (supported === false) return null;

  async function run(): Promise<string | undefined> {
    const started = await passkeySignInOptionsAction(new FormData());
    if (!("options" in started)) return started.error ?? "Signing in with a passkey failed. Try again.";
    const ceremony = await getPasskeyAssertion(started.options);
    if (ceremony.error !== undefined) return ceremony.error;
    return finish(started.challengeId, ceremony.response);
  }

  return (
    <div className="flex flex-col gap-2">
      {error && (
        <Notice role="alert" tone="danger">
          {error}
        </Notice>
      )}
      <Button
        type="button"
        variant={variant}
        size="lg"
        loading={busy}
        disabled={disabled || !supported}
        onClick={async () => {
          if (busy) return;
          setBusy(true);
          setError(undefined);
          try {
            setError(await run());
          } catch (caught) {
            // A redirect (signed in: on to the page asked for) passes on to Next.js.
            unstable_rethrow(caught);
            setError("The console cannot be reached. Check your connection and try again.");
          } finally {
            setBusy(false);
          }
        }}
      >
        {label}
      </Button>
    </div>
  );
}
