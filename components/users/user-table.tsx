import type { ReactNode } from "react";
import { Badge } from "@/components/ui/badge";
import { DateTime } from "@/components/ui/date-time";
import { Table, TableBody, TableCard, TableCell, TableHead, TableHeader } from "@/components/ui/table";
import { cn } from "@/lib/browser/cn";
import { ROLE_LABELS, type Role } from "@/lib/contract/roles";
import { ResetLinkButton } from "./account-link";
import { AccessToggle, RoleSelect } from "./user-forms";

/** A user as the page hands it over: plain data, the date already a string. */
export type UserListRow = {
  id: string;
  name: string;
  email: string;
  role: string;
  disabled: boolean;
  createdAt: string;
  lastSignInAt: string | null;
  invited: boolean;
  /** A demo account, whose published password is not reset. */
  demo: boolean;
};

// The design's table (components/data-table) drawn by the server: it never sorts or pages, so no table library
// loads with the page; only the controls in its cells are islands.
const COLUMNS: { label: ReactNode; className?: string }[] = [
  { label: "Name" },
  // Beside the side cards (1280–1535 px) the address sits under the name, as on a phone, so Reset and Disable fit.
  { label: "Email", className: "hidden sm:table-cell xl:hidden 2xl:table-cell" },
  { label: "Role" },
  // Only where there is room: beside the side cards, Added would push Reset and Disable behind a scroll.
  { label: "Added", className: "hidden tabular-nums 2xl:table-cell" },
  { label: "Last sign-in", className: "hidden tabular-nums md:table-cell" },
  { label: <span className="sr-only">Access</span>, className: "hidden text-right sm:table-cell" },
];

/** The people table. `meId` is the signed-in admin, who may change neither their own role nor access. */
export function UserTable({ users, meId }: { users: UserListRow[]; meId: string }) {
  return (
    <TableCard>
      <div className="relative overflow-x-auto">
        <Table caption="Users">
          <TableHeader>
            <tr>
              {COLUMNS.map(({ label, className }, i) => (
                // The columns are fixed and in order: the index is their identity.
                <TableHead key={i} className={className}>
                  {label}
                </TableHead>
              ))}
            </tr>
          </TableHeader>
          <TableBody>
            {users.map((user) => (
              <UserRow key={user.id} user={user} me={user.id === meId} />
            ))}
          </TableBody>
        </Table>
      </div>
    </TableCard>
  );
}

function UserRow({ user, me }: { user: UserListRow; me: boolean }) {
  const cell = (i: number, more?: string) => cn(COLUMNS[i].className, more);
  return (
    <tr>
      <TableCell wrap className={cell(0, "min-w-32")}>
        <span className="inline-flex flex-wrap items-center gap-x-2 gap-y-1 font-medium">
          <bdi>{user.name}</bdi>
          {user.disabled && <Badge>Disabled</Badge>}
        </span>
        {/* On a phone, and beside the side cards, the Email column gives way so Role, Save and Disable fit: the address shows here. */}
        <span className="mt-0.5 block text-xs text-muted-foreground sm:hidden xl:block 2xl:hidden">
          <EmailText email={user.email} />
        </span>
      </TableCell>
      {/* Long addresses wrap only where an address may (after "@", before a dot), so Role and Disable stay in view
          beside the add form instead of behind a scroll, and no word is cut in two. */}
      <TableCell wrap className={cell(1, "min-w-32 text-muted-foreground xl:min-w-48")}>
        <EmailText email={user.email} />
      </TableCell>
      <TableCell className={cell(2)}>
        {me ? (
          <span title="You cannot change your own role">{ROLE_LABELS[user.role as Role] ?? user.role} (you)</span>
        ) : (
          <>
            <RoleSelect email={user.email} role={user.role} />
            {/* On a phone the Access column gives way too (long test addresses still overflowed): its action sits here. */}
            <div className="mt-1 -ml-2 flex flex-wrap sm:hidden">
              <AccessToggle email={user.email} disabled={user.disabled} />
              {!user.demo && <ResetLinkButton email={user.email} />}
            </div>
          </>
        )}
      </TableCell>
      <TableCell className={cell(3, "text-muted-foreground")}>
        <DateTime iso={user.createdAt} />
      </TableCell>
      {/* The time may take two lines, so that names and addresses keep theirs. */}
      <TableCell wrap className={cell(4, "min-w-28 text-muted-foreground")}>
        {user.lastSignInAt ? <DateTime iso={user.lastSignInAt} /> : user.invited ? "Invited: no password yet" : "Never"}
      </TableCell>
      <TableCell className={cell(5)}>
        {!me && (
          <div className="flex justify-end">
            {!user.demo && <ResetLinkButton email={user.email} />}
            <AccessToggle email={user.email} disabled={user.disabled} />
          </div>
        )}
      </TableCell>
    </tr>
  );
}

/**
 * An email address that may wrap only at its natural boundaries: after the "@" and before each dot (a word
 * break opportunity, <wbr>), never in the middle of a name as `break-all` did.
 */
export function EmailText({ email }: { email: string }) {
  const parts = email.split(/(?=\.)|(?<=@)/);
  return (
    <span className="break-normal">
      {parts.map((part, i) => (
        // The parts are the address's own pieces in order; the index is their identity.
        <span key={i}>
          {i > 0 && <wbr />}
          {part}
        </span>
      ))}
    </span>
  );
}
