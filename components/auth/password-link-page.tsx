import Link from "next/link";
import type { ReactNode } from "react";
import { type LinkKind, type LinkState, linkGoneSentence } from "@/lib/console/auth/account-links";
import { PasswordLinkForm } from "./password-link-form";

/** The invitation and reset pages: the form for a link that works, else one sentence and the way to sign in. */
export function PasswordLinkPage({ kind, token, link }: { kind: LinkKind; token: string; link: LinkState }) {
  if (link.state !== "ok") return <LinkGone kind={kind} state={link.state} />;
  return (
    <LinkShell title={kind === "invite" ? "Choose your password" : "Choose a new password"}>
      <p className="mt-2 text-sm text-muted-foreground">
        {kind === "invite" ? (
          <>
            Welcome, {link.name}. You are invited to Invoice Console as <span className="font-medium text-foreground">{link.email}</span>.
            Choose your password to sign in; this link works once.
          </>
        ) : (
          <>
            For <span className="font-medium text-foreground">{link.email}</span>. Saving it signs this account out everywhere else and
            signs you in here; this link works once.
          </>
        )}
      </p>
      <PasswordLinkForm kind={kind} token={token} email={link.email} />
    </LinkShell>
  );
}

export function LinkGone({ kind, state }: { kind: LinkKind; state: Exclude<LinkState["state"], "ok"> }) {
  return (
    <LinkShell title="This link does not work">
      <p className="mt-2 text-sm text-muted-foreground">{linkGoneSentence(kind, state)}</p>
      <p className="mt-6 text-sm">
        <Link href="/login" className="font-medium text-foreground underline underline-offset-4">
          Go to sign in
        </Link>
      </p>
    </LinkShell>
  );
}

function LinkShell({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main id="main" className="grid min-h-screen place-items-center px-page py-12">
      <div className="w-full max-w-sm">
        <div className="mb-8 flex items-center gap-2 text-lg font-semibold tracking-tight">
          <span aria-hidden className="grid size-8 place-items-center rounded-md bg-primary text-sm text-primary-foreground">
            IC
          </span>
          Invoice Console
        </div>
        <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
        {children}
      </div>
    </main>
  );
}
