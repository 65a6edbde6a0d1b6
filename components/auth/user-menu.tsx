import { signOut } from "@/lib/auth/actions";
import { ROLE_DESCRIPTIONS, ROLE_LABELS, type Role } from "@/lib/auth/roles";

/** Who is signed in, with which role, and the way out. A native <details> keeps it keyboard-operable without script. */
export function UserMenu({ user }: { user: { name: string; email: string; role: Role } }) {
  return (
    <details className="relative">
      <summary className="flex cursor-pointer list-none items-center gap-2 rounded-md px-2 py-1 text-sm hover:bg-zinc-100">
        <span aria-hidden className="grid size-7 place-items-center rounded-full bg-zinc-200 text-xs font-semibold uppercase text-zinc-700">
          {user.name.slice(0, 1) || user.email.slice(0, 1)}
        </span>
        <span className="hidden text-left sm:block">
          <span className="block leading-tight font-medium">{user.name}</span>
          <span className="block text-xs leading-tight text-zinc-500" data-testid="user-role">
            {ROLE_LABELS[user.role]}
          </span>
        </span>
        <span className="sr-only">Account menu for {user.email}</span>
      </summary>
      <div className="absolute right-0 z-10 mt-2 w-72 rounded-lg border border-zinc-200 bg-white p-4 text-sm shadow-lg">
        <p className="font-medium">{user.name}</p>
        <p className="text-zinc-600">{user.email}</p>
        <p className="mt-3 text-xs text-zinc-600">
          <span className="font-medium text-zinc-800">{ROLE_LABELS[user.role]}:</span> {ROLE_DESCRIPTIONS[user.role]}
        </p>
        <form action={signOut} className="mt-4">
          <button type="submit" className="w-full rounded-md border border-zinc-300 px-3 py-1.5 font-medium hover:bg-zinc-50">
            Sign out
          </button>
        </form>
      </div>
    </details>
  );
}
