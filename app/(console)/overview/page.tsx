import type { Metadata } from "next";
import type { SearchParams } from "nuqs/server";
import { Suspense } from "react";
import { ATTENTION, AttentionCard } from "@/components/overview/attention-card";
import { OverviewCardLoading } from "@/components/overview/overview-card";
import { PeriodPicker } from "@/components/overview/period-picker";
import { STATUS_COUNTS, StatusCountsCard } from "@/components/overview/status-counts-card";
import { VOLUME, VolumeCard } from "@/components/overview/volume-card";
import { guardPage } from "@/lib/console/bff/page";
import { loadOverviewState, resolvePeriod } from "@/lib/console/overview/period";
import { requestTimeZone } from "@/lib/console/time-zone-server";

export const metadata: Metadata = { title: "Overview" };

/**
 * Where the day starts (`/` opens it). The frame and the period arrive at once; each card streams in on its
 * own behind its own loading state, and a card whose provider calls fail shows its own error and retry while
 * the others render.
 */
export default async function OverviewPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  await guardPage("invoices:read");
  const [state, written] = await Promise.all([loadOverviewState(searchParams), searchParams]);
  const period = resolvePeriod(state, (await requestTimeZone()).timeZone, new Date(), written);
  const key = `${period.createdAfter}|${period.createdBefore ?? ""}`;

  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Overview</h1>
        <p className="mt-1 text-sm text-muted-foreground">
          Invoices per status, completed volume and what needs attention. Figures are at most 30 seconds old.
        </p>
      </div>
      <PeriodPicker state={state} period={period} />
      <div className="grid gap-6 lg:grid-cols-3">
        <Suspense key={`counts|${key}`} fallback={<OverviewCardLoading {...STATUS_COUNTS} rows={7} />}>
          <StatusCountsCard period={period} />
        </Suspense>
        <Suspense key={`volume|${key}|${period.bucket}`} fallback={<OverviewCardLoading {...VOLUME} className="lg:col-span-2" rows={6} />}>
          <VolumeCard period={period} state={state} className="lg:col-span-2" />
        </Suspense>
        <Suspense fallback={<OverviewCardLoading {...ATTENTION} className="lg:col-span-3" rows={4} />}>
          <AttentionCard className="lg:col-span-3" />
        </Suspense>
      </div>
    </div>
  );
}
