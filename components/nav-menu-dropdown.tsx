"use client";

import Link from "next/link";
import type { DeferredMenuProps } from "@/components/ui/deferred-menu";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";
import { cn } from "@/lib/browser/cn";
import type { SavedView } from "@/lib/contract/saved-view";
import { isCurrent, NavCount, type NavItem } from "./nav-item";
import { SavedViewItems } from "./saved-view-items";

/** The main navigation as a menu below 1024 px, loaded after the page (nav-links.tsx), with the saved views under it. */
export function NavMenuDropdown({
  items,
  views,
  pathname,
  trigger,
  open,
  onOpenChange,
}: DeferredMenuProps & { items: NavItem[]; views: SavedView[]; pathname: string }) {
  return (
    <DropdownMenu modal={false} open={open} onOpenChange={onOpenChange}>
      <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
      <DropdownMenuContent align="start" className="w-64">
        {items.map((item) => {
          const current = isCurrent(pathname, item.href);
          return (
            <DropdownMenuItem key={item.href} asChild>
              <Link href={item.href} aria-current={current ? "page" : undefined} className={cn("font-medium", current && "bg-accent")}>
                {item.label}
                <NavCount item={item} />
              </Link>
            </DropdownMenuItem>
          );
        })}
        <SavedViewItems views={views} separated />
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
