import type { Metadata } from "next";
import { headers } from "next/headers";
import Link from "next/link";
import { PasskeysSection } from "@/components/account/passkeys-section";
import { TwoFactorSection } from "@/components/account/two-factor-section";
import { Button } from "@/components/ui/button";
import { PagePersonProvider } from "@/lib/browser/page-person";
import { signOut } from "@/lib/console/auth/actions";
import { listPasskeys, suggestedPasskeyName } from "@/lib/console/auth/passkeys";
import { requireUser } from "@/lib/console/auth/session";
import { enrolment } from "@/lib/console/auth/two-factor";
import { getDatabase } from "@/lib/platform/db";

export const metadata: Metadata = { title: "Set up a second factor" };

/**
 * Where a person whose role needs a second factor (an authenticator app or a passkey), and who has none, is sent after their password: nothing else
 * of the console answers them until they have set one up (lib/console/bff). Outside the console's layout, which
 * reads what they may not read yet. Anyone signed in may use it; the Account page holds the same section.
 */
export default async function TwoFactorPage() {
  const user = await requireUser({ settingUpSecondFactor: true });
  const db = await getDatabase();
  const [state, keys] = await Promise.all([enrolment(db, user), listPasskeys(db, user.id)]);
  return (
    <PagePersonProvider person={{ id: user.id, email: user.email }}>
      <main id="main" className="mx-auto flex min-h-screen w-full max-w-2xl flex-col gap-6 px-page py-12">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">Set up a second factor</h1>
          <p className="mt-1 text-sm text-muted-foreground">
            {user.needsSecondFactor
              ? `As ${user.role}, you sign in with a second factor after your password: a code from an authenticator app, or a passkey. Set one up to continue; until then the console stays closed to ${user.email}.`
              : `You are signed in as ${user.email}.`}
          </p>
        </div>
        <TwoFactorSection enrolment={state} email={user.email} hasPasskey={keys.length > 0} />
        <PasskeysSection passkeys={keys} suggestedName={suggestedPasskeyName((await headers()).get("user-agent"))} />
        <div className="flex flex-wrap items-center gap-4">
          {!user.needsSecondFactor && (
            <Link href="/overview" className="text-sm font-medium underline underline-offset-2">
              Continue to the console
            </Link>
          )}
          <form action={signOut}>
            <Button type="submit" variant="ghost">
              Sign out
            </Button>
          </form>
        </div>
      </main>
    </PagePersonProvider>
  );
}
