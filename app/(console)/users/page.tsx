import type { Metadata } from "next";
import { AccessToggle, AddUserForm, RoleSelect } from "@/components/users/user-forms";
import { DateTime } from "@/components/ui/date-time";
import { ROLE_LABELS } from "@/lib/auth/roles";
import { guardPage } from "@/lib/bff/page";
import { listUsers } from "@/lib/auth/users";
import { getDatabase } from "@/lib/db";

export const metadata: Metadata = { title: "Users" };

export default async function UsersPage() {
  const me = await guardPage("users:manage");
  const users = await listUsers(await getDatabase());

  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Users</h1>
        <p className="mt-1 text-sm text-zinc-600">Who can sign in to the console, and what their role lets them do.</p>
      </div>
      <div className="grid gap-6 lg:grid-cols-[1fr_22rem]">
        <div className="overflow-hidden rounded-lg border border-zinc-200 bg-white shadow-xs">
          <table className="w-full text-sm">
            <thead className="border-b border-zinc-200 bg-zinc-50 text-left text-xs font-medium tracking-wide text-zinc-600 uppercase">
              <tr>
                <th scope="col" className="px-4 py-2.5">Name</th>
                <th scope="col" className="px-4 py-2.5">Email</th>
                <th scope="col" className="px-4 py-2.5">Role</th>
                <th scope="col" className="px-4 py-2.5">Added</th>
                <th scope="col" className="px-4 py-2.5"><span className="sr-only">Access</span></th>
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-100">
              {users.map((u) => (
                <tr key={u.id} className={u.disabled ? "text-zinc-400" : undefined}>
                  <td className="px-4 py-2.5 font-medium">
                    {u.name}
                    {u.disabled && <span className="ml-2 rounded-full bg-zinc-100 px-2 py-0.5 text-xs font-medium text-zinc-600">Disabled</span>}
                  </td>
                  <td className="px-4 py-2.5 text-zinc-700">{u.email}</td>
                  <td className="px-4 py-2.5">
                    {u.id === me.id ? (
                      <span title="You cannot change your own role">{ROLE_LABELS[me.role]} (you)</span>
                    ) : (
                      <RoleSelect email={u.email} role={u.role} />
                    )}
                  </td>
                  <td className="px-4 py-2.5 whitespace-nowrap text-zinc-600"><DateTime iso={u.createdAt.toISOString()} /></td>
                  <td className="px-4 py-2.5">{u.id !== me.id && <AccessToggle email={u.email} disabled={u.disabled} />}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <AddUserForm />
      </div>
    </div>
  );
}
