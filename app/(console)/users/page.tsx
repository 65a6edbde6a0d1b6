import type { Metadata } from "next";
import Link from "next/link";
import { SearchIndexCard } from "@/components/search/search-index-card";
import { Notice } from "@/components/ui/notice";
import { TwoFactorRequirementForm } from "@/components/users/two-factor-requirement-form";
import { AddUserForm } from "@/components/users/user-forms";
import { UserSessions } from "@/components/users/user-sessions";
import { UserTable } from "@/components/users/user-table";
import { sessionsByPerson } from "@/lib/console/auth/sessions";
import { requiredRoles } from "@/lib/console/auth/two-factor";
import { isDemoAccount, listUsers } from "@/lib/console/auth/users";
import { guardPage } from "@/lib/console/bff/page";
import { searchSync } from "@/lib/console/mirror";
import { getDatabase } from "@/lib/platform/db";
import { env } from "@/lib/platform/env";
import { localDataNotice } from "@/lib/platform/local-data";

export const metadata: Metadata = { title: "Users" };

export default async function UsersPage() {
  const me = await guardPage("users:manage");
  const db = await getDatabase();
  const [users, index, twoFactor, sessions] = await Promise.all([
    listUsers(db),
    searchSync().state(true),
    requiredRoles(db),
    sessionsByPerson(db, me.sessionId),
  ]);
  const signedIn = users.flatMap(({ id, name, email }) => {
    const own = sessions.get(id);
    return own ? [{ id, name, email, sessions: own }] : [];
  });
  const localData = localDataNotice();

  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Users</h1>
        <p className="mt-1 text-sm text-muted-foreground">
          Who can sign in to the console, and what their role lets them do. Which status changes each role may ask for, and which need a
          second person, is the{" "}
          <Link href="/settings" className="font-medium text-foreground underline underline-offset-4">
            approval policy
          </Link>
          .
        </p>
      </div>
      {localData && (
        <Notice tone="warning" role="note" data-testid="local-data-notice">
          {localData}
        </Notice>
      )}
      {/* min-w-0: a grid item is as wide as its content by default, so the table's scroll would widen the page. */}
      <div className="grid gap-6 xl:grid-cols-[minmax(0,1fr)_22rem]">
        <div className="flex min-w-0 flex-col gap-6">
          <UserTable
            users={users.map((u) => ({
              ...u,
              createdAt: u.createdAt.toISOString(),
              lastSignInAt: u.lastSignInAt?.toISOString() ?? null,
              demo: isDemoAccount(u.email),
            }))}
            meId={me.id}
          />
          <UserSessions people={signedIn} />
        </div>
        <div className="flex flex-col gap-6">
          <AddUserForm people={users.map((u) => ({ email: u.email, role: u.role, disabled: u.disabled }))} />
          <TwoFactorRequirementForm required={twoFactor.roles} chosen={twoFactor.chosen} />
          <SearchIndexCard index={index} syncSeconds={env().search.syncSeconds} />
        </div>
      </div>
    </div>
  );
}
