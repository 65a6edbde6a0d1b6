"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import type { ReactNode } from "react";
import { DeferredMenu } from "@/components/ui/deferred-menu";
import type { SavedView } from "@/lib/contract/saved-view";
import { isCurrent, NavCount, type NavItem } from "./nav-item";

/**
 * The look of the design's ghost button (components/ui/button.tsx) as plain classes: the header's buttons are in
 * every page's first load, which does without the Button's slot.
 */
const BUTTON = `inline-flex shrink-0 items-center justify-center rounded-md text-sm font-medium whitespace-nowrap transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring disabled:pointer-events-none disabled:opacity-60 [&_svg]:pointer-events-none [&_svg]:shrink-0 [&_svg:not([class*='size-'])]:size-4 hover:bg-accent hover:text-accent-foreground`;

const loadDropdown = () => import("./nav-menu-dropdown");
const loadViewsDropdown = () => import("./saved-views-menu-dropdown");

/** The main navigation, marking where the person is: links in the header from 1024 px, a menu below (six links do not fit a tablet's header). */
export function NavLinks({
  items,
  views,
  menuIcon,
  viewsIcon,
}: {
  items: NavItem[];
  /** The invoice list's saved views this person sees: their own and the team's. */
  views: SavedView[];
  /** The menu buttons' icons, drawn on the server. */
  menuIcon: ReactNode;
  viewsIcon: ReactNode;
}) {
  const pathname = usePathname();
  return (
    <>
      <nav aria-label="Main" className="hidden items-center gap-1 text-sm lg:flex">
        {items.map((item) => (
          <Link
            key={item.href}
            href={item.href}
            aria-current={isCurrent(pathname, item.href) ? "page" : undefined}
            className="rounded-md px-3 py-1.5 font-medium whitespace-nowrap text-muted-foreground lg:px-2 2xl:px-3 hover:bg-accent hover:text-accent-foreground aria-[current=page]:bg-accent aria-[current=page]:text-accent-foreground"
          >
            {item.label}
            <NavCount item={item} />
          </Link>
        ))}
        <DeferredMenu
          load={loadViewsDropdown}
          trigger={
            <button
              type="button"
              className={`${BUTTON} gap-1 px-3 py-1.5 text-muted-foreground lg:px-2 2xl:px-3 data-[state=open]:bg-accent data-[state=open]:text-accent-foreground`}
              aria-label="Saved views"
            >
              {/* The word from 1280 px; between 1024 and 1280 the bookmark stands for it, so the account's name keeps one line. */}
              <span className="lg:sr-only xl:not-sr-only">Views</span>
              {viewsIcon}
            </button>
          }
          render={({ SavedViewsMenuDropdown }, props) => <SavedViewsMenuDropdown views={views} {...props} />}
        />
      </nav>
      <DeferredMenu
        load={loadDropdown}
        trigger={
          <button type="button" className={`${BUTTON} size-control text-foreground lg:hidden`} aria-label="Main menu">
            {menuIcon}
          </button>
        }
        render={({ NavMenuDropdown }, props) => <NavMenuDropdown items={items} views={views} pathname={pathname} {...props} />}
      />
    </>
  );
}
