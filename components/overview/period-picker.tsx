import Link from "next/link";
import { Button } from "@/components/ui/button";
import { DAY_FORMAT, DateInput } from "@/components/ui/date-input";
import { Notice } from "@/components/ui/notice";
import { cn } from "@/lib/browser/cn";
import {
  MAX_PERIOD_DAYS,
  OVERVIEW_PERIODS,
  type OverviewState,
  PERIOD_LABELS,
  type ResolvedPeriod,
  serializeOverviewState,
} from "@/lib/console/overview/period";
import { formatIsoDay } from "@/lib/contract/format-date";

/**
 * The period as links (today, 7, 30, 90 days) and a custom range as a plain GET form: the choice lives in the
 * URL, so a reload or a shared link shows the same overview, and it works before the page's script has loaded.
 */
export function PeriodPicker({ state, period }: { state: OverviewState; period: ResolvedPeriod }) {
  const from = period.firstDay;
  const to = period.lastDay;
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-end gap-x-6 gap-y-3">
        <nav aria-label="Period" className="flex flex-wrap rounded-md border border-border bg-card p-0.5 text-sm">
          {OVERVIEW_PERIODS.filter((p) => p !== "custom").map((p) => (
            <Link
              key={p}
              href={`/overview${serializeOverviewState({ period: p, from: null, to: null, bucket: null })}`}
              aria-current={period.period === p ? "page" : undefined}
              className={cn(
                "rounded px-3 py-1.5 font-medium",
                period.period === p ? "bg-accent text-accent-foreground" : "text-muted-foreground hover:text-foreground",
              )}
            >
              {PERIOD_LABELS[p]}
            </Link>
          ))}
        </nav>
        <form method="get" action="/overview" className="flex flex-wrap items-end gap-2" aria-label="Custom period">
          <input type="hidden" name="period" value="custom" />
          {state.bucket && <input type="hidden" name="bucket" value={state.bucket} />}
          <label className="flex flex-col gap-1 text-xs font-medium text-muted-foreground">
            From
            <DateInput name="from" defaultValue={period.typed?.from || from} required className="w-40" aria-describedby="period-format" />
          </label>
          <label className="flex flex-col gap-1 text-xs font-medium text-muted-foreground">
            To
            <DateInput name="to" defaultValue={period.typed?.to || to} required className="w-40" aria-describedby="period-format" />
          </label>
          <Button type="submit" variant={period.period === "custom" ? "primary" : "secondary"}>
            Show period
          </Button>
          <p id="period-format" className="self-center text-xs text-muted-foreground">
            Days as {DAY_FORMAT}
          </p>
        </form>
      </div>
      <p className="text-sm text-muted-foreground" data-testid="period-range">
        {period.days === 1 ? formatIsoDay(from) : `${formatIsoDay(from)} to ${formatIsoDay(to)}`} (days in {period.timeZone}
        {period.period === "custom" ? `; at most ${MAX_PERIOD_DAYS}` : ""}).
      </p>
      {period.notice && (
        <Notice tone="warning" role="alert">
          {period.notice} Showing the last 30 days instead.
        </Notice>
      )}
    </div>
  );
}
