import Link from "next/link";
import { buttonVariants } from "@/components/ui/button";
import { cn } from "@/lib/browser/cn";
import type { Pagination } from "@/lib/contract";
import { type ActivityQuery, activitySearch } from "@/lib/contract/activity";
import { formatCount } from "@/lib/contract/format";

/** Where you are ("51–100 of 12,408") and the pages around, as links: they work without script. */
export function ActivityPagination({ pagination, query }: { pagination: Pagination; query: ActivityQuery }) {
  const { current_page: page, total_pages: pages, total_records: total, page_size: size } = pagination;
  const first = Math.min((page - 1) * size + 1, total);
  const last = Math.min(page * size, total);
  const link = (target: number, label: string, rel?: string) =>
    target >= 1 && target <= pages && target !== page ? (
      <Link
        href={`/activity${activitySearch(query, { page: target })}`}
        rel={rel}
        className={cn(buttonVariants({ variant: "ghost", size: "sm" }))}
      >
        {label}
      </Link>
    ) : (
      <span aria-disabled className={cn(buttonVariants({ variant: "ghost", size: "sm" }), "pointer-events-none opacity-50")}>
        {label}
      </span>
    );
  return (
    <div className="flex flex-wrap items-center justify-between gap-2 border-t border-border px-3 py-3 text-sm text-muted-foreground">
      <p className="tabular-nums" id="activity-range">
        {total === 0
          ? "No entries"
          : page > pages
            ? `No entries here; ${formatCount(total)} in all`
            : `${formatCount(first)}–${formatCount(last)} of ${formatCount(total)}`}
      </p>
      <nav aria-label="Pagination" className="flex flex-wrap items-center gap-1">
        {link(1, "First")}
        {link(Math.min(page - 1, pages), "Previous", "prev")}
        <span className="px-1 whitespace-nowrap tabular-nums">
          Page {formatCount(page)} of {formatCount(Math.max(pages, 1))}
        </span>
        {link(page + 1, "Next", "next")}
        {link(pages, "Last")}
      </nav>
    </div>
  );
}
