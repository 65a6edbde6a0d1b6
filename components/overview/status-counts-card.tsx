import Link from "next/link";
import { StatusBadge } from "@/components/invoices/status-badge";
import { loadStatusCounts } from "@/lib/console/overview/load";
import { type ResolvedPeriod, tableHref } from "@/lib/console/overview/period";
import { formatCount } from "@/lib/contract/format";
import { STATUS_DESCRIPTIONS } from "@/lib/contract/status";
import { OverviewCard, OverviewCardError } from "./overview-card";

export const STATUS_COUNTS = { id: "status-counts", title: "Invoices by status" };

/** Invoices created in the period, per status, each opening the table filtered the same way. */
export async function StatusCountsCard({ period, className }: { period: ResolvedPeriod; className?: string }) {
  let counts: Awaited<ReturnType<typeof loadStatusCounts>>;
  try {
    counts = await loadStatusCounts(period);
  } catch (error) {
    return <OverviewCardError {...STATUS_COUNTS} className={className} error={error} />;
  }
  const total = counts.reduce((sum, c) => sum + c.count, 0);
  return (
    <OverviewCard {...STATUS_COUNTS} className={className} description="Created in the period. Each opens the table with that filter.">
      <ul className="flex flex-col">
        {counts.map(({ status, count }) => (
          <li key={status} className="border-b border-border last:border-b-0">
            <Link
              href={tableHref(period, { status: [status] })}
              data-status={status}
              title={STATUS_DESCRIPTIONS[status]}
              className="-mx-2 flex items-center justify-between gap-4 rounded-md px-2 py-2 hover:bg-accent focus-visible:outline-2 focus-visible:outline-ring"
            >
              <StatusBadge status={status} />
              <span className="tabular-nums font-medium" data-testid="status-count">
                {formatCount(count)}
              </span>
            </Link>
          </li>
        ))}
      </ul>
      <Link
        href={tableHref(period)}
        className="-mx-2 mt-2 flex items-center justify-between gap-4 rounded-md px-2 py-2 text-sm font-semibold hover:bg-accent"
        data-testid="status-total"
      >
        <span>All invoices</span>
        <span className="tabular-nums">{formatCount(total)}</span>
      </Link>
    </OverviewCard>
  );
}
