"use client";

import { ChevronDown, LogOut } from "lucide-react";
import { useRef } from "react";
import { ThemeMenuItems } from "@/components/theme/theme-menu-items";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { signOut } from "@/lib/auth/actions";
import { ROLE_DESCRIPTIONS, ROLE_LABELS, type Role } from "@/lib/auth/roles";

type Props = { user: { name: string; email: string; role: Role } };

/** Who is signed in, with which role, the theme, and the way out. Escape and an outside click close it. */
export function UserMenu({ user }: Props) {
  // The form lives outside the menu: the menu's content unmounts when it closes, and a form must stay
  // connected to submit.
  const signOutForm = useRef<HTMLFormElement>(null);
  return (
    <>
      <form ref={signOutForm} action={signOut} hidden />
      <DropdownMenu modal={false}>
        <DropdownMenuTrigger className="flex items-center gap-2 rounded-md px-1.5 py-1 text-sm hover:bg-accent data-[state=open]:bg-accent sm:px-2">
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
        </DropdownMenuTrigger>
        <DropdownMenuContent className="w-72">
          <div className="px-2 py-1.5">
            <p className="font-medium">{user.name}</p>
            <p className="text-muted-foreground">{user.email}</p>
            <p className="mt-2 text-xs text-muted-foreground">
              <span className="font-medium text-foreground">{ROLE_LABELS[user.role]}:</span> {ROLE_DESCRIPTIONS[user.role]}
            </p>
          </div>
          <DropdownMenuSeparator />
          <ThemeMenuItems />
          <DropdownMenuSeparator />
          <DropdownMenuItem onSelect={() => signOutForm.current?.requestSubmit()}>
            <LogOut aria-hidden /> Sign out
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
    </>
  );
}
