"use client";

import { Button } from "@/components/ui/button";
import { formatCount } from "@/lib/format";
import type { Pagination } from "@/lib/invoicing";
import { PAGE_SIZES } from "@/lib/query/invoice-list-state";

type Props = {
  pagination: Pagination;
  pageSize: (typeof PAGE_SIZES)[number];
  onChange: (patch: { page?: number; page_size?: (typeof PAGE_SIZES)[number] }) => void;
};

export function InvoicePagination({ pagination, pageSize, onChange }: Props) {
  const { current_page: page, total_pages: pages, total_records: total, page_size: size } = pagination;
  const first = Math.min((page - 1) * size + 1, total);
  const last = Math.min(page * size, total);
  const lastPage = Math.max(pages, 1);

  return (
    <div className="flex flex-wrap items-center justify-between gap-3 border-t border-zinc-200 px-4 py-3 text-sm text-zinc-700">
      <label className="flex items-center gap-2">
        Rows per page
        <select
          value={pageSize}
          onChange={(e) => onChange({ page_size: Number(e.target.value) as Props["pageSize"] })}
          className="h-8 rounded-md border border-zinc-300 bg-white pr-7 pl-2 text-sm"
        >
          {PAGE_SIZES.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </label>
      <p id="invoice-range" className="tabular-nums" aria-live="polite">
        {page > pages ? `No rows here; ${formatCount(total)} in all` : `${formatCount(first)}–${formatCount(last)} of ${formatCount(total)}`}
      </p>
      <nav aria-label="Pagination" className="flex items-center gap-1">
        <Button size="sm" variant="ghost" aria-label="First page" disabled={!pagination.has_previous} onClick={() => onChange({ page: 1 })}>
          «
        </Button>
        <Button size="sm" variant="ghost" aria-label="Previous page" disabled={!pagination.has_previous} onClick={() => onChange({ page: Math.min(page - 1, lastPage) })}>
          ‹ Prev
        </Button>
        <span className="px-2 tabular-nums">
          Page {formatCount(page)} of {formatCount(lastPage)}
        </span>
        <Button size="sm" variant="ghost" aria-label="Next page" disabled={!pagination.has_next} onClick={() => onChange({ page: page + 1 })}>
          Next ›
        </Button>
        <Button size="sm" variant="ghost" aria-label="Last page" disabled={page >= lastPage} onClick={() => onChange({ page: lastPage })}>
          »
        </Button>
      </nav>
    </div>
  );
}
