"use client";

import { Clock, LogOut, Settings } from "lucide-react";
import Link from "next/link";
import { ThemeMenuItems } from "@/components/theme/theme-menu-items";
import { useTimeZone } from "@/components/time-zone/time-zone-provider";
import type { DeferredMenuProps } from "@/components/ui/deferred-menu";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { can, ROLE_DESCRIPTIONS, ROLE_LABELS, type Role } from "@/lib/contract/roles";

type Props = DeferredMenuProps & { user: { name: string; email: string; role: Role }; onSignOut: () => void };

/** The user menu itself, loaded after the page (user-menu-control.tsx). */
export function UserMenuDropdown({ user, trigger, open, onOpenChange, onSignOut }: Props) {
  const timeZone = useTimeZone();
  return (
    <DropdownMenu modal={false} open={open} onOpenChange={onOpenChange}>
      <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
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
        <DropdownMenuItem asChild>
          <Link href="/account">
            <Clock aria-hidden /> Time zone: {timeZone}
          </Link>
        </DropdownMenuItem>
        {can(user.role, "policy:manage") && (
          <DropdownMenuItem asChild>
            <Link href="/settings">
              <Settings aria-hidden /> Settings: approval policy
            </Link>
          </DropdownMenuItem>
        )}
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={onSignOut}>
          <LogOut aria-hidden /> Sign out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
