import { ScrollText } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { ActivityFilters } from "@/components/activity/activity-filters";
import { ActivityPagination } from "@/components/activity/activity-pagination";
import { ActivityTable } from "@/components/activity/activity-table";
import { ChainCheck } from "@/components/activity/chain-check";
import { EmptyState } from "@/components/ui/empty-state";
import { Notice } from "@/components/ui/notice";
import { verifyChain } from "@/lib/console/activity/chain";
import { activityPeople, listActivity } from "@/lib/console/activity/query";
import { guardPage } from "@/lib/console/bff/page";
import { ACTIVITY_DEFAULT_PAGE_SIZE, type ActivityQuery, activityQuerySchema, activitySearch, isFiltered } from "@/lib/contract/activity";
import { can } from "@/lib/contract/roles";
import { getDatabase } from "@/lib/platform/db";
import { env } from "@/lib/platform/env";

export const metadata: Metadata = { title: "Activity" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/**
 * Everything anyone did through the console, newest first (the audit log, lib/console/activity): filtered by a
 * GET form, paged by links, exported as the view, and, for admins, verified on demand (?verify=1).
 */
export default async function ActivityPage({ searchParams }: Props) {
  const user = await guardPage("audit:read");
  const params = await searchParams;
  // A GET form sends its empty fields too ("after="): those are no filter.
  const given = Object.fromEntries(
    Object.entries(params)
      .map(([key, value]) => [key, Array.isArray(value) ? value.filter(Boolean) : value] as const)
      .filter(([, value]) => (Array.isArray(value) ? value.length > 0 : Boolean(value?.trim()))),
  );
  const parsed = activityQuerySchema.safeParse(given);
  const timeZone = env().timeZone;
  const db = await getDatabase();
  const people = await activityPeople(db);
  const mayVerify = can(user.role, "audit:verify");

  if (!parsed.success) {
    const empty: ActivityQuery = { action: [], page: 1, page_size: ACTIVITY_DEFAULT_PAGE_SIZE };
    return (
      <Frame>
        <ActivityFilters query={empty} people={people} timeZone={timeZone} />
        <Notice role="alert" tone="danger">
          These filters cannot be read: {parsed.error.issues.map((i) => `${String(i.path[0] ?? "filter")} ${i.message}`).join("; ")}.{" "}
          <Link href="/activity" className="font-medium underline underline-offset-2">
            Show all activity
          </Link>
        </Notice>
      </Frame>
    );
  }
  const query = parsed.data;
  const [list, verification] = await Promise.all([
    listActivity(db, query, timeZone),
    mayVerify && params.verify === "1" ? verifyChain(db) : null,
  ]);

  return (
    <Frame>
      <ActivityFilters query={query} people={people} timeZone={timeZone} />
      {mayVerify && <ChainCheck result={verification} verifyHref={`/activity${appendVerify(activitySearch(query))}`} />}
      <div className="overflow-hidden rounded-lg border border-border bg-card">
        {list.items.length ? (
          <ActivityTable entries={list.items} timeZone={timeZone} />
        ) : (
          <EmptyState
            icon={<ScrollText />}
            title={isFiltered(query) ? "No activity matches these filters" : "No activity yet"}
            description={
              isFiltered(query)
                ? query.after || query.before
                  ? "Widen the dates or clear a filter."
                  : "Clear a filter, or look for other words."
                : "Changes, sign-ins and exports appear here as they happen."
            }
            action={
              isFiltered(query) ? (
                <Link href="/activity" className="text-sm font-medium underline underline-offset-2">
                  Clear filters
                </Link>
              ) : undefined
            }
          />
        )}
        <ActivityPagination pagination={list.pagination} query={query} />
      </div>
    </Frame>
  );
}

const appendVerify = (search: string) => (search ? `${search}&verify=1` : "?verify=1");

function Frame({ children }: { children: React.ReactNode }) {
  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Activity</h1>
        <p className="mt-1 text-sm text-muted-foreground">
          Everything people did through the console: status changes, archive entries, exports, sign-ins, people and settings. Entries are
          only ever added, each linked to the one before by its hash.
        </p>
      </div>
      {children}
    </div>
  );
}
