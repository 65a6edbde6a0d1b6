import Link from "next/link";
import { Notice } from "@/components/ui/notice";
import { cn } from "@/lib/browser/cn";
import { loadCompletedVolume } from "@/lib/console/overview/load";
import { VOLUME_PAGE_BUDGET, VOLUME_PAGE_SIZE, type Volume } from "@/lib/console/overview/overview";
import { MAX_DAY_BUCKETS, type OverviewState, type ResolvedPeriod, serializeOverviewState, tableHref } from "@/lib/console/overview/period";
import { formatCount, formatEur } from "@/lib/contract/format";
import { formatIsoDay } from "@/lib/contract/format-date";
import { compareDecimal } from "@/lib/contract/money";
import { OverviewCard, OverviewCardError } from "./overview-card";
import { VolumeChartLazy } from "./volume-chart-lazy";

export const VOLUME = { id: "volume", title: "Completed volume" };

/** EUR of completed invoices per day or week; counts instead when there are too many to sum within the budget. */
export async function VolumeCard({ period, state, className }: { period: ResolvedPeriod; state: OverviewState; className?: string }) {
  let volume: Volume;
  try {
    volume = await loadCompletedVolume(period);
  } catch (error) {
    return <OverviewCardError {...VOLUME} className={className} error={error} />;
  }
  const sums = volume.kind === "sums";
  const by = volume.bucket === "day" ? "day" : "week";
  const summary = sums
    ? `${formatEur(volume.totalEur ?? "0")} from ${formatCount(volume.completed)} completed invoices, by ${by}.`
    : `${formatCount(volume.completed)} completed invoices, counted by ${by}.`;
  const best = volume.points.reduce<(typeof volume.points)[number] | null>((top, p) => (isAbove(volume, p, top) ? p : top), null);
  const chartLabel = `${sums ? "Completed volume in EUR" : "Completed invoices"} by ${by}: ${summary}${best ? ` Highest: ${formatIsoDay(best.label)}, ${sums ? formatEur(best.sumEur ?? "0") : formatCount(best.count)}.` : ""}`;

  return (
    <OverviewCard
      {...VOLUME}
      className={className}
      description={<span data-testid="volume-summary">{summary}</span>}
      action={<BucketSwitch period={period} state={state} />}
    >
      {!sums && (
        <Notice tone="warning" role="status" className="mb-4">
          Showing counts, not sums: this period holds {formatCount(volume.completed)} completed invoices, more than the{" "}
          {formatCount(VOLUME_PAGE_BUDGET * VOLUME_PAGE_SIZE)} the overview sums within {VOLUME_PAGE_BUDGET} provider calls. Choose a
          shorter period for amounts in EUR.
        </Notice>
      )}
      {volume.completed === 0 ? (
        <p className="py-10 text-center text-sm text-muted-foreground">No invoice created in this period is completed.</p>
      ) : (
        <figure aria-label={chartLabel} className="m-0">
          <VolumeChartLazy points={volume.points} kind={volume.kind} />
          <figcaption className="sr-only">{chartLabel}</figcaption>
        </figure>
      )}
      {volume.notSummed > 0 && (
        <p className="mt-3 text-sm text-muted-foreground">
          {formatCount(volume.notSummed)} completed invoice(s) in another currency or without an amount are counted, not summed.
        </p>
      )}
      <div className="mt-4 flex flex-wrap items-center justify-between gap-2 text-sm">
        <details className="group">
          <summary className="cursor-pointer rounded-md text-link underline-offset-4 hover:underline">Show as a table</summary>
          <table className="mt-3 w-full text-sm">
            <caption className="sr-only">{chartLabel}</caption>
            <thead>
              <tr className="border-b border-border text-left text-muted-foreground">
                <th scope="col" className="py-1.5 pr-4 font-medium">
                  {volume.bucket === "day" ? `Day (${period.timeZone})` : `Week (${period.timeZone})`}
                </th>
                <th scope="col" className="py-1.5 pr-4 text-right font-medium">
                  Completed
                </th>
                {sums && (
                  <th scope="col" className="py-1.5 text-right font-medium">
                    EUR
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {volume.points.map((p) => (
                <tr key={p.start} className="border-b border-border last:border-b-0">
                  <th scope="row" className="py-1.5 pr-4 text-left font-normal">
                    {formatIsoDay(p.label)}
                  </th>
                  <td className="py-1.5 pr-4 text-right tabular-nums">{formatCount(p.count)}</td>
                  {sums && <td className="py-1.5 text-right tabular-nums">{formatEur(p.sumEur ?? "0")}</td>}
                </tr>
              ))}
            </tbody>
          </table>
        </details>
        <Link href={tableHref(period, { status: ["completed"] })} className="text-link underline-offset-4 hover:underline">
          Completed invoices in the table
        </Link>
      </div>
    </OverviewCard>
  );
}

/** Whether `p` beats `top` (nothing beats an empty bucket): sums compared as decimals, counts as counts. */
function isAbove(volume: Volume, p: Volume["points"][number], top: Volume["points"][number] | null): boolean {
  if (volume.kind === "sums") return compareDecimal(p.sumEur ?? "0", top?.sumEur ?? "0") > 0;
  return p.count > (top?.count ?? 0);
}

/** By day or by week, as links (the choice lives in the URL like the period). */
function BucketSwitch({ period, state }: { period: ResolvedPeriod; state: OverviewState }) {
  const dayAllowed = period.days <= MAX_DAY_BUCKETS;
  return (
    <div role="group" aria-label="Group the chart" className="flex rounded-md border border-border p-0.5 text-sm">
      {(["day", "week"] as const).map((size) => {
        const current = period.bucket === size;
        const label = size === "day" ? "By day" : "By week";
        if (size === "day" && !dayAllowed) {
          return (
            <span
              key={size}
              className="cursor-not-allowed px-2.5 py-1 text-muted-foreground"
              title={`Periods longer than ${MAX_DAY_BUCKETS} days are shown by week.`}
            >
              {label}
            </span>
          );
        }
        return (
          <Link
            key={size}
            href={`/overview${serializeOverviewState({ ...state, bucket: size })}`}
            aria-current={current ? "true" : undefined}
            scroll={false}
            className={cn(
              "rounded px-2.5 py-1 font-medium",
              current ? "bg-accent text-accent-foreground" : "text-muted-foreground hover:text-foreground",
            )}
          >
            {label}
          </Link>
        );
      })}
    </div>
  );
}
