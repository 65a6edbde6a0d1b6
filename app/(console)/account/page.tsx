import type { Metadata } from "next";
import { headers } from "next/headers";
import { PasskeysSection } from "@/components/account/passkeys-section";
import { PasswordSection } from "@/components/account/password-section";
import { RecentSignIns } from "@/components/account/recent-sign-ins";
import { SessionsSection } from "@/components/account/sessions-section";
import { TimeZoneForm } from "@/components/account/time-zone-form";
import { TwoFactorSection } from "@/components/account/two-factor-section";
import { listPasskeys, suggestedPasskeyName } from "@/lib/console/auth/passkeys";
import { requireUser } from "@/lib/console/auth/session";
import { listSessions, recentSignIns } from "@/lib/console/auth/sessions";
import { enrolment } from "@/lib/console/auth/two-factor";
import { isDemoAccount } from "@/lib/console/auth/users";
import { requestTimeZone } from "@/lib/console/time-zone-server";
import { knownTimeZones } from "@/lib/contract/time-zone";
import { getDatabase } from "@/lib/platform/db";

export const metadata: Metadata = { title: "Account" };

/**
 * The signed-in person's own settings: the time zone they count days in, their password, authenticator app and passkeys, where they are
 * signed in, and their recent sign-ins.
 */
export default async function AccountPage() {
  const user = await requireUser();
  const db = await getDatabase();
  const [zone, enrolled, keys, sessions, signIns] = await Promise.all([
    requestTimeZone(),
    enrolment(db, user),
    listPasskeys(db, user.id),
    listSessions(db, user),
    recentSignIns(db, user.email),
  ]);
  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Account</h1>
        <p className="mt-1 text-sm text-muted-foreground">
          {user.name} · {user.email}. Days and times are in{" "}
          <span className="font-medium text-foreground" data-testid="account-time-zone">
            {zone.timeZone}
          </span>
          .
        </p>
      </div>
      <TimeZoneForm chosen={user.timeZone ? zone.timeZone : null} businessTimeZone={zone.businessTimeZone} zones={knownTimeZones()} />
      <PasswordSection email={user.email} demo={isDemoAccount(user.email)} />
      <TwoFactorSection enrolment={enrolled} email={user.email} hasPasskey={keys.length > 0} />
      <PasskeysSection passkeys={keys} suggestedName={suggestedPasskeyName((await headers()).get("user-agent"))} />
      <SessionsSection sessions={sessions} />
      <RecentSignIns entries={signIns} />
    </div>
  );
}
