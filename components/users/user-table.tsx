"use client";

import { createColumnHelper, tableFeatures, useTable } from "@tanstack/react-table";
import { useMemo } from "react";
import { DataTable } from "@/components/data-table/data-table";
import { Badge } from "@/components/ui/badge";
import { DateTime } from "@/components/ui/date-time";
import { ROLE_LABELS, type Role } from "@/lib/contract/roles";
import { AccessToggle, RoleSelect } from "./user-forms";
import "@/components/data-table/column-meta";

/** A user as the page hands it over: plain data, the date already a string. */
export type UserListRow = { id: string; name: string; email: string; role: string; disabled: boolean; createdAt: string };

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
      cell: ({ row }) => (
        <span className="inline-flex items-center gap-2 font-medium">
          {row.original.name}
          {row.original.disabled && <Badge>Disabled</Badge>}
        </span>
      ),
    }),
    // Long addresses wrap, so Role and Disable stay in view beside the add form instead of behind a scroll.
    column.accessor("email", { header: "Email", meta: { cellClassName: "min-w-40 text-muted-foreground break-all whitespace-normal" } }),
    column.accessor("role", {
      header: "Role",
      cell: ({ row }) =>
        row.original.id === meId ? (
          <span title="You cannot change your own role">{ROLE_LABELS[row.original.role as Role] ?? row.original.role} (you)</span>
        ) : (
          <RoleSelect email={row.original.email} role={row.original.role} />
        ),
    }),
    column.accessor("createdAt", {
      header: "Added",
      meta: { className: "tabular-nums", cellClassName: "text-muted-foreground" },
      cell: ({ getValue }) => <DateTime iso={getValue()} />,
    }),
    column.display({
      id: "access",
      header: () => <span className="sr-only">Access</span>,
      meta: { label: "Access", className: "text-right" },
      cell: ({ row }) => row.original.id !== meId && <AccessToggle email={row.original.email} disabled={row.original.disabled} />,
    }),
  ]);
}
