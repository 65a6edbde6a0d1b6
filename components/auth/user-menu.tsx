"use client";

import { ChevronDown } from "lucide-react";
import { useRef } from "react";
import { DeferredMenu } from "@/components/ui/deferred-menu";
import { signOut } from "@/lib/auth/actions";
import { ROLE_LABELS, type Role } from "@/lib/auth/roles";

type Props = { user: { name: string; email: string; role: Role } };

const loadDropdown = () => import("./user-menu-dropdown");

/** Who is signed in, with which role, the theme, and the way out. Escape and an outside click close it. */
export function UserMenu({ user }: Props) {
  // The form lives outside the menu: the menu's content unmounts when it closes, and a form must stay
  // connected to submit.
  const signOutForm = useRef<HTMLFormElement>(null);
  return (
    <>
      <form ref={signOutForm} action={signOut} hidden />
      <DeferredMenu
        load={loadDropdown}
        trigger={
          <button type="button" className="flex items-center gap-2 rounded-md px-1.5 py-1 text-sm hover:bg-accent data-[state=open]:bg-accent sm:px-2">
            <span aria-hidden className="grid size-7 place-items-center rounded-full bg-muted text-xs font-semibold text-foreground uppercase">
              {user.name.slice(0, 1) || user.email.slice(0, 1)}
            </span>
            <span className="hidden text-left sm:block">
              <span className="block leading-tight font-medium">{user.name}</span>
              <span className="block text-xs leading-tight text-muted-foreground" data-testid="user-role">
                {ROLE_LABELS[user.role]}
              </span>
            </span>
            <span className="sr-only">Account menu for {user.email}</span>
            <ChevronDown aria-hidden className="hidden size-4 text-muted-foreground sm:block" />
          </button>
        }
        render={({ UserMenuDropdown }, props) => <UserMenuDropdown user={user} onSignOut={() => signOutForm.current?.requestSubmit()} {...props} />}
      />
    </>
  );
}
