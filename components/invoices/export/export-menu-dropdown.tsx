"use client";

import type { DeferredMenuProps } from "@/components/ui/deferred-menu";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";
import type { ExportFormat } from "@/lib/contract";

/** The export menu's items, loaded after the page (export-menu.tsx). */
export function ExportMenuDropdown({
  trigger,
  open,
  onOpenChange,
  onStart,
}: DeferredMenuProps & { onStart: (format: ExportFormat, bom?: boolean) => void }) {
  return (
    // Not modal, like the console's other menus: a modal menu hides the rest of the page with aria-hidden while
    // its controls stay focusable (axe: aria-hidden-focus). Escape, an outside click and Tab still close it.
    <DropdownMenu modal={false} open={open} onOpenChange={onOpenChange}>
      <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuItem onSelect={() => onStart("csv")}>Export CSV</DropdownMenuItem>
        <DropdownMenuItem onSelect={() => onStart("csv", true)}>Export CSV for Excel</DropdownMenuItem>
        <DropdownMenuItem onSelect={() => onStart("json")}>Export JSON</DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
