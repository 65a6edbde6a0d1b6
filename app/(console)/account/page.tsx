import type { Metadata } from "next";
import { TimeZoneForm } from "@/components/account/time-zone-form";
import { TwoFactorSection } from "@/components/account/two-factor-section";
import { requireUser } from "@/lib/console/auth/session";
import { enrolment } from "@/lib/console/auth/two-factor";
import { requestTimeZone } from "@/lib/console/time-zone-server";
import { knownTimeZones } from "@/lib/contract/time-zone";
import { getDatabase } from "@/lib/platform/db";

export const metadata: Metadata = { title: "Account" };

/** The signed-in person's own settings: the time zone they count days in, and their authenticator app. */
export default async function AccountPage() {
  const user = await requireUser();
  const zone = await requestTimeZone();
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
      <TwoFactorSection enrolment={await enrolment(await getDatabase(), user)} email={user.email} />
    </div>
  );
}
