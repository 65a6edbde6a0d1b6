import Link from "next/link";
import type { ReactNode } from "react";
import { env } from "@/lib/env";

export default function ConsoleLayout({ children }: { children: ReactNode }) {
  const { embeddedSandbox } = env();
  return (
    <div className="min-h-screen">
      <header className="border-b border-zinc-200 bg-white">
        <div className="mx-auto flex h-14 max-w-[1600px] items-center gap-8 px-6">
          <Link href="/invoices" className="flex items-center gap-2 font-semibold tracking-tight">
            <span aria-hidden className="grid size-7 place-items-center rounded-md bg-indigo-600 text-sm text-white">
              IC
            </span>
            Invoice Console
          </Link>
          <nav aria-label="Main" className="flex gap-1 text-sm">
            <Link href="/invoices" className="rounded-md px-3 py-1.5 font-medium text-zinc-900 hover:bg-zinc-100">
              Invoices
            </Link>
          </nav>
          {embeddedSandbox && (
            <span
              className="ml-auto rounded-full bg-amber-100 px-2.5 py-0.5 text-xs font-medium text-amber-800"
              title="The console talks to the embedded sandbox: simulated data, no real payments."
            >
              Sandbox
            </span>
          )}
        </div>
      </header>
      <main className="mx-auto max-w-[1600px] px-6 py-8">{children}</main>
    </div>
  );
}
