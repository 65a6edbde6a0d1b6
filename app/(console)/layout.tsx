import { Bookmark, ChevronDown, Menu, Search } from "lucide-react";
import Link from "next/link";
import type { ReactNode } from "react";
import { LazySignInAgain } from "@/components/auth/lazy-sign-in-again";
import { UserMenu } from "@/components/auth/user-menu";
import { NavLinks } from "@/components/nav-links";
import { LazyRatesStrip } from "@/components/rates/lazy-rates-strip";
import { SearchLauncher } from "@/components/search/search-launcher";
import { Badge } from "@/components/ui/badge";
import { PagePersonProvider } from "@/lib/browser/page-person";
import { countPendingApprovals } from "@/lib/console/approvals/store";
import { requireUser } from "@/lib/console/auth/session";
import { listSavedViews } from "@/lib/console/saved-views/store";
import { can } from "@/lib/contract/roles";
import { getDatabase } from "@/lib/platform/db";
import { env } from "@/lib/platform/env";

export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const user = await requireUser();
  const { embeddedSandbox } = env();
  // The invoice list's saved views, read after the session: the person's own and the team's.
  const db = await getDatabase();
  const views = can(user.role, "invoices:read") ? await listSavedViews(db, user) : [];
  // Those who may approve see how many requests wait for someone like them.
  const waiting = can(user.role, "invoices:approve") ? await countPendingApprovals(db) : 0;
  const nav = [
    { href: "/overview", label: "Overview", show: true },
    { href: "/invoices", label: "Invoices", show: true },
    { href: "/rates", label: "Rates", show: true },
    { href: "/archive", label: "Archive", show: can(user.role, "invoices:archive") },
    { href: "/approvals", label: "Approvals", show: can(user.role, "invoices:change_status"), count: waiting, countLabel: "waiting" },
    { href: "/activity", label: "Activity", show: can(user.role, "audit:read") },
    { href: "/docs/api", label: "API reference", show: true },
    { href: "/webhooks", label: "Webhooks", show: can(user.role, "webhooks:simulate") },
    { href: "/users", label: "Users", show: can(user.role, "users:manage") },
  ];
  return (
    // Every change below is sent for the person this page was drawn for (lib/contract/drawn-for.ts).
    <PagePersonProvider person={{ id: user.id, email: user.email }}>
      <div className="min-h-screen">
        {/* The first Tab stop: past the header and its menus to the page itself. */}
        <a
          href="#main"
          className="sr-only rounded-md bg-primary px-3 py-2 text-sm font-medium text-primary-foreground focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50"
        >
          Skip to content
        </a>
        <header className="border-b border-border bg-card">
          {/* 1024–1279 px holds seven links and Views beside the account: the gaps narrow there, not the names. */}
          <div className="mx-auto flex h-14 max-w-[1600px] items-center gap-2 px-page sm:gap-8 lg:gap-4 xl:gap-8">
            <Link
              href="/overview"
              aria-label="Invoice Console, overview"
              className="flex items-center gap-2 rounded-md font-semibold tracking-tight"
            >
              <span aria-hidden className="grid size-7 place-items-center rounded-md bg-primary text-sm text-primary-foreground">
                IC
              </span>
              {/* From 1024 px the name gives way to the links (and Views) until 1536 px; the mark and its label stay. */}
              <span className="hidden sm:inline lg:hidden 2xl:inline">Invoice Console</span>
            </Link>
            <NavLinks
              items={nav.filter((item) => item.show)}
              views={views}
              menuIcon={<Menu aria-hidden className="size-5" />}
              viewsIcon={
                <>
                  <Bookmark aria-hidden className="size-4 xl:hidden" />
                  <ChevronDown aria-hidden className="size-4" />
                </>
              }
            />
            <div className="ml-auto flex items-center gap-2 sm:gap-4 lg:gap-2 xl:gap-4">
              <SearchLauncher>
                <Search aria-hidden className="size-4" />
                <span className="sr-only sm:not-sr-only lg:sr-only xl:not-sr-only">Find invoice</span>
                <kbd
                  aria-hidden
                  className="hidden rounded border border-border bg-muted px-1.5 font-mono text-[0.7rem] md:inline lg:hidden xl:inline"
                >
                  /
                </kbd>
              </SearchLauncher>
              {embeddedSandbox && (
                <Badge tone="warning" title="The console talks to the embedded sandbox: simulated data, no real payments.">
                  Sandbox
                </Badge>
              )}
              <UserMenu user={user} />
            </div>
          </div>
        </header>
        {/* A landmark of its own, so no content of the shell sits outside every landmark (axe: region). */}
        <aside aria-label="Rates">
          <LazyRatesStrip />
        </aside>
        <main id="main" tabIndex={-1} className="mx-auto outline-none max-w-[1600px] px-page py-6 sm:py-8">
          {children}
        </main>
        {/* The one "Your session ended" dialog: any change refused for an ended session signs in again here. */}
        <LazySignInAgain email={user.email} />
      </div>
    </PagePersonProvider>
  );
}
