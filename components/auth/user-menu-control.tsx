"use client";

import { type ReactElement, useRef } from "react";
import { forgetListSearch } from "@/components/invoices/list/remembered-list-search";
import { DeferredMenu, type TriggerProps } from "@/components/ui/deferred-menu";
import { signOut } from "@/lib/console/auth/actions";
import type { Role } from "@/lib/contract/roles";

type Props = { user: { name: string; email: string; role: Role }; trigger: ReactElement<TriggerProps> };

const loadDropdown = () => import("./user-menu-dropdown");

/** The account menu around its server-drawn button (user-menu.tsx). Escape and an outside click close it. */
export function UserMenuControl({ user, trigger }: Props) {
  // The form lives outside the menu: the menu's content unmounts when it closes, and a form must stay
  // connected to submit.
  const signOutForm = useRef<HTMLFormElement>(null);
  return (
    <>
      <form ref={signOutForm} action={signOut} onSubmit={forgetListSearch} hidden />
      <DeferredMenu
        load={loadDropdown}
        trigger={trigger}
        render={({ UserMenuDropdown }, props) => (
          <UserMenuDropdown user={user} onSignOut={() => signOutForm.current?.requestSubmit()} {...props} />
        )}
      />
    </>
  );
}
