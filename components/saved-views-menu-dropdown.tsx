"use client";

import Link from "next/link";
import type { DeferredMenuProps } from "@/components/ui/deferred-menu";
import { DropdownMenu, DropdownMenuContent, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";
import type { SavedView } from "@/lib/contract/saved-view";
import { SavedViewItems } from "./saved-view-items";

/** The saved views of the invoice list as a menu in the header, from 1024 px (nav-links.tsx). */
export function SavedViewsMenuDropdown({ views, trigger, open, onOpenChange }: DeferredMenuProps & { views: SavedView[] }) {
  return (
    <DropdownMenu modal={false} open={open} onOpenChange={onOpenChange}>
      <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
      <DropdownMenuContent align="start" className="w-72">
        <SavedViewItems views={views} />
        {views.length === 0 && (
          <p className="px-2 py-1.5 text-xs text-muted-foreground">
            None yet. On{" "}
            <Link href="/invoices" className="underline" onClick={() => onOpenChange(false)}>
              Invoices
            </Link>
            , filter the list and choose “Save view”.
          </p>
        )}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
