"use client";

import Link from "next/link";
import type { DeferredMenuProps } from "@/components/ui/deferred-menu";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";
import type { SavedView } from "@/lib/contract/saved-view";
import { SavedViewItems } from "./saved-view-items";

/** The saved views of the invoice list as a menu in the header, from 1024 px (nav-links.tsx). */
export function SavedViewsMenuDropdown({ views, trigger, open, onOpenChange }: DeferredMenuProps & { views: SavedView[] }) {
  return (
    <DropdownMenu modal={false} open={open} onOpenChange={onOpenChange}>
      <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
      <DropdownMenuContent align="start" className="w-72">
        <SavedViewItems views={views} />
        {/* A menu holds items: the hint is one, and it leads where a view is saved. */}
        {views.length === 0 && (
          <DropdownMenuItem asChild className="text-xs text-muted-foreground">
            <Link href="/invoices">None yet. On Invoices, filter the list and choose “Save view”.</Link>
          </DropdownMenuItem>
        )}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
