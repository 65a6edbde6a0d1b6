import { ChevronDown } from "lucide-react";
import { ROLE_LABELS, type Role } from "@/lib/contract/roles";
import { UserMenuControl } from "./user-menu-control";

type Props = { user: { name: string; email: string; role: Role } };

/**
 * Who is signed in, with which role, the theme, and the way out. The button is drawn here, on the server;
 * the browser gets only what makes it a menu (user-menu-control.tsx).
 */
export function UserMenu({ user }: Props) {
  return (
    <UserMenuControl
      user={user}
      trigger={
        <button
          type="button"
          className="flex items-center gap-2 rounded-md px-1.5 py-1 text-sm hover:bg-accent data-[state=open]:bg-accent sm:px-2"
        >
          <span
            aria-hidden
            className="grid size-7 place-items-center rounded-full bg-muted text-xs font-semibold text-foreground uppercase"
          >
            {user.name.slice(0, 1) || user.email.slice(0, 1)}
          </span>
          {/* 1024–1535 px: the header's links (eight for an admin) need the room; the menu itself names the person. */}
          <span className="hidden text-left sm:block lg:hidden 2xl:block">
            <span className="block leading-tight font-medium whitespace-nowrap">{user.name}</span>
            <span className="block text-xs leading-tight text-muted-foreground" data-testid="user-role">
              {ROLE_LABELS[user.role]}
            </span>
          </span>
          <span className="sr-only">Account menu for {user.email}</span>
          <ChevronDown aria-hidden className="hidden size-4 text-muted-foreground sm:block lg:hidden 2xl:block" />
        </button>
      }
    />
  );
}
