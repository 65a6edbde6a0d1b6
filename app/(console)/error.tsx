"use client";

import Link from "next/link";
import { Button } from "@/components/ui/button";
import { ProblemState } from "@/components/ui/problem-state";

/** A page that failed to load: what happened, and two ways on. Server errors arrive with their message hidden. */
export default function ConsoleError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <ProblemState
      headingLevel={1}
      title="This page could not be loaded"
      detail="The invoicing API may be unreachable or slow. Try again; if it keeps failing, an administrator can check the console's health at /api/health."
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
