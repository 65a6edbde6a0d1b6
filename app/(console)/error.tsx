"use client";

import Link from "next/link";
import { Button } from "@/components/ui/button";

/** A page that failed to load: what happened, and two ways on. Server errors arrive with their message hidden. */
export default function ConsoleError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div role="alert" className="mx-auto flex max-w-md flex-col items-center gap-3 py-20 text-center">
      <h1 className="text-xl font-semibold">This page could not be loaded</h1>
      <p className="text-sm text-zinc-600">
        The invoicing API may be unreachable or slow. Try again; if it keeps failing, an administrator can check
        the console&apos;s health at /api/health.
        {error.digest && <span className="mt-2 block font-mono text-xs text-zinc-400">Reference {error.digest}</span>}
      </p>
      <div className="flex gap-2">
        <Button variant="primary" onClick={reset}>
          Try again
        </Button>
        <Link href="/invoices" className="inline-flex h-9 items-center rounded-md px-3.5 text-sm font-medium text-indigo-700 hover:underline">
          All invoices
        </Link>
      </div>
    </div>
  );
}
