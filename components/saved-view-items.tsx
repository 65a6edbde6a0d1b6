"use client";

import { Bookmark, Users } from "lucide-react";
import Link from "next/link";
import { Fragment } from "react";
import { DropdownMenuGroup, DropdownMenuItem, DropdownMenuLabel, DropdownMenuSeparator } from "@/components/ui/dropdown-menu";
import { type SavedView, savedViewHref } from "@/lib/contract/saved-view";

/** A person's saved views, then the team's, as menu items that link to the list (both navigation menus). */
export function SavedViewItems({ views, separated }: { views: SavedView[]; separated?: boolean }) {
  const groups = [
    { label: "Your views", views: views.filter((v) => v.mine) },
    { label: "Team views", views: views.filter((v) => !v.mine) },
  ].filter((group) => group.views.length > 0);
  return groups.map((group, index) => (
    <Fragment key={group.label}>
      {(separated || index > 0) && <DropdownMenuSeparator />}
      <DropdownMenuGroup aria-label={group.label}>
        <DropdownMenuLabel>{group.label}</DropdownMenuLabel>
        {group.views.map((view) => (
          <DropdownMenuItem key={view.id} asChild>
            <Link href={savedViewHref(view.query)} data-testid="saved-view-link">
              {view.shared ? <Users aria-hidden /> : <Bookmark aria-hidden />}
              <span className="min-w-0 flex-1 truncate" title={view.name}>
                <bdi>{view.name}</bdi>
                {view.mine && <span className="sr-only">{view.shared ? " (shared with the team)" : " (only you)"}</span>}
              </span>
              {!view.mine && <span className="shrink-0 text-xs text-muted-foreground">{view.ownerName}</span>}
            </Link>
          </DropdownMenuItem>
        ))}
      </DropdownMenuGroup>
    </Fragment>
  ));
}
