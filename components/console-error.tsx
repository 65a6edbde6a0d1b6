"use client";

import Link from "next/link";
import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { ProblemState } from "@/components/ui/problem-state";
import { sessionStateAction } from "@/lib/console/auth/sign-in-again";
import { signInAgainHref } from "@/lib/contract/sign-in-again-href";

/**
 * A page that failed to load: what happened, and the ways on. Server errors arrive with their message hidden,
 * so the page asks whether the session is still live: an ended session is the likeliest cause once the
 * header was drawn, and then it says "signed out", with the way to sign in and back here, instead of blaming
 * the invoicing API.
 */
export function ConsoleError({ error, reset }: { error: Error & { digest?: string; status?: number }; reset: () => void }) {
  const [signedOut, setSignedOut] = useState<boolean | null>(error.status === 401 ? true : null);
  const [here, setHere] = useState("/overview");

  useEffect(() => {
    setHere(window.location.pathname + window.location.search);
    if (error.status === 401) return;
    let live = true;
    sessionStateAction(new FormData()).then(
      (answer) => live && "signedIn" in answer && setSignedOut(!answer.signedIn),
      () => live && setSignedOut(false),
    );
    return () => {
      live = false;
    };
  }, [error]);

  if (signedOut)
    return (
      <ProblemState
        headingLevel={1}
        title="You are signed out"
        detail="Your session ended, so this page could not be loaded. Sign in again to come back to it."
        action={
          <Button variant="primary" asChild>
            <Link href={signInAgainHref(here)}>Sign in again</Link>
          </Button>
        }
      />
    );

  return (
    <ProblemState
      headingLevel={1}
      title="This page could not be loaded"
      detail={
        signedOut === null
          ? "Finding out why…"
          : "The invoicing API may be unreachable or slow. Try again; if it keeps failing, an administrator can check the console's health at /api/health."
      }
      reference={error.digest}
      action={
        <>
          <Button variant="primary" onClick={reset}>
            Try again
          </Button>
          <Button variant="ghost" asChild>
            <Link href="/invoices">All invoices</Link>
          </Button>
        </>
      }
    />
  );
}
