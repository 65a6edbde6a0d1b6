import type { Metadata } from "next";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/auth/sign-in-form";
import { secondFactorsOf } from "@/lib/console/auth/second-factors";
import { currentUser, safeNextPath } from "@/lib/console/auth/session";
import { pendingSignIn } from "@/lib/console/auth/sign-in-code";
import { DEMO_PASSWORD, DEMO_USERS } from "@/lib/console/auth/users";
import { ROLE_DESCRIPTIONS } from "@/lib/contract/roles";
import { getDatabase } from "@/lib/platform/db";
import { env } from "@/lib/platform/env";

export const metadata: Metadata = { title: "Sign in" };

type Props = { searchParams: Promise<{ next?: string; signed_out?: string; ended?: string; restart?: string }> };

export default async function LoginPage({ searchParams }: Props) {
  const { next, signed_out, ended, restart } = await searchParams;
  const nextPath = safeNextPath(next);
  if (await currentUser()) redirect(nextPath);
  // A right password whose code is still to come (a reload, or no script): the server draws the code step.
  const pending = restart ? null : await pendingSignIn(await headers());
  const codeStep = pending ? await secondFactorsOf(await getDatabase(), pending.id) : null;
  const demo = env().embeddedSandbox
    ? DEMO_USERS.map((u) => ({ ...u, password: DEMO_PASSWORD, description: ROLE_DESCRIPTIONS[u.role] }))
    : [];

  return (
    <main id="main" className="grid min-h-screen place-items-center px-page py-12">
      <div className="w-full max-w-sm">
        <div className="mb-8 flex items-center gap-2 text-lg font-semibold tracking-tight">
          <span aria-hidden className="grid size-8 place-items-center rounded-md bg-primary text-sm text-primary-foreground">
            IC
          </span>
          Invoice Console
        </div>
        <h1 className="text-2xl font-semibold tracking-tight">Sign in</h1>
        <SignInForm
          next={nextPath}
          demoUsers={demo}
          codeStep={codeStep}
          notice={
            signed_out
              ? "You are signed out."
              : ended === "draft"
                ? "Your session ended. Sign in again to finish; what you typed is kept."
                : ended
                  ? "Your session ended. Sign in again to continue where you were."
                  : !["/", "/overview"].includes(nextPath)
                    ? "Sign in to continue where you were."
                    : undefined
          }
        />
      </div>
    </main>
  );
}
