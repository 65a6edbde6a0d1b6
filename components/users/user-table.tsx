"use client";

import { createColumnHelper, tableFeatures, useTable } from "@tanstack/react-table";
import { useMemo } from "react";
import { DataTable } from "@/components/data-table/data-table";
import { Badge } from "@/components/ui/badge";
import { DateTime } from "@/components/ui/date-time";
import { ROLE_LABELS, type Role } from "@/lib/contract/roles";
import { ResetLinkButton } from "./account-link";
import { AccessToggle, RoleSelect } from "./user-forms";
import "@/components/data-table/column-meta";

/** A user as the page hands it over: plain data, the date already a string. */
export type UserListRow = {
  id: string;
  name: string;
  email: string;
  role: string;
  disabled: boolean;
  createdAt: string;
  lastSignInAt: string | null;
};

const features = tableFeatures({});
const column = createColumnHelper<typeof features, UserListRow>();

/** The people table. `meId` is the signed-in admin, who may change neither their own role nor access. */
export function UserTable({ users, meId }: { users: UserListRow[]; meId: string }) {
  const columns = useMemo(() => userColumns(meId), [meId]);
  const table = useTable({ features, columns, data: users, getRowId: (row) => row.id });
  return <DataTable table={table} caption="Users" />;
}

function userColumns(meId: string) {
  return column.columns([
    column.accessor("name", {
      header: "Name",
      meta: { wrap: true },
      cell: ({ row }) => (
        <>
          <span className="inline-flex flex-wrap items-center gap-x-2 gap-y-1 font-medium">
            <bdi>{row.original.name}</bdi>
            {row.original.disabled && <Badge>Disabled</Badge>}
          </span>
          {/* On a phone the Email and Added columns give way so Role, Save and Disable fit: the address shows here. */}
          <span className="mt-0.5 block text-xs text-muted-foreground sm:hidden">
            <EmailText email={row.original.email} />
          </span>
        </>
      ),
    }),
    // Long addresses wrap only where an address may (after "@", before a dot), so Role and Disable stay in view
    // beside the add form instead of behind a scroll, and no word is cut in two.
    column.accessor("email", {
      header: "Email",
      meta: { className: "hidden sm:table-cell", cellClassName: "min-w-32 text-muted-foreground", wrap: true },
      cell: ({ getValue }) => <EmailText email={getValue()} />,
    }),
    column.accessor("role", {
      header: "Role",
      cell: ({ row }) =>
        row.original.id === meId ? (
          <span title="You cannot change your own role">{ROLE_LABELS[row.original.role as Role] ?? row.original.role} (you)</span>
        ) : (
          <>
            <RoleSelect email={row.original.email} role={row.original.role} />
            {/* On a phone the Access column gives way too (long test addresses still overflowed): its action sits here. */}
            <div className="mt-1 -ml-2 flex flex-wrap sm:hidden">
              <AccessToggle email={row.original.email} disabled={row.original.disabled} />
              <ResetLinkButton email={row.original.email} />
            </div>
          </>
        ),
    }),
    column.accessor("createdAt", {
      header: "Added",
      meta: { className: "hidden tabular-nums sm:table-cell", cellClassName: "text-muted-foreground" },
      cell: ({ getValue }) => <DateTime iso={getValue()} />,
    }),
    column.accessor("lastSignInAt", {
      header: "Last sign-in",
      meta: { className: "hidden tabular-nums md:table-cell", cellClassName: "text-muted-foreground" },
      cell: ({ getValue }) => (getValue() ? <DateTime iso={getValue()} /> : "Never"),
    }),
    column.display({
      id: "access",
      header: () => <span className="sr-only">Access</span>,
      meta: { label: "Access", className: "hidden text-right sm:table-cell" },
      cell: ({ row }) =>
        row.original.id !== meId && (
          <div className="flex justify-end">
            <ResetLinkButton email={row.original.email} />
            <AccessToggle email={row.original.email} disabled={row.original.disabled} />
          </div>
        ),
    }),
  ]);
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
