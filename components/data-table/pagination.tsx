"use client";

import { ChevronLeft, ChevronRight, ChevronsLeft, ChevronsRight } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Select } from "@/components/ui/select";
import { formatCount } from "@/lib/contract/format";

type PaginationProps<TSize extends number> = {
  /** 1-based. May be past the last page (a shared link after rows went away). */
  page: number;
  pageCount: number;
  /** The chosen page size. */
  pageSize: TSize;
  /** The size the rows on screen were fetched with, while a new size loads; defaults to `pageSize`. */
  shownPageSize?: number;
  pageSizes: readonly TSize[];
  /** Rows in the whole list. */
  total: number;
  /** The id of the "41–60 of 2,013" line, so the table can point at it with aria-describedby. */
  rangeId?: string;
  onPageChange: (page: number) => void;
  onPageSizeChange: (size: TSize) => void;
};

/**
 * Page size, where you are ("41–60 of 2,013", announced when it changes) and first/previous/next/last. On a
 * phone it wraps to two lines and the word labels give way to arrows, which keep their accessible names.
 */
export function DataTablePagination<TSize extends number>({
  page,
  pageCount,
  pageSize,
  shownPageSize = pageSize,
  pageSizes,
  total,
  rangeId,
  onPageChange,
  onPageSizeChange,
}: PaginationProps<TSize>) {
  const lastPage = Math.max(pageCount, 1);
  const first = Math.min((page - 1) * shownPageSize + 1, total);
  const last = Math.min(page * shownPageSize, total);
  const hasPrevious = page > 1;
  const hasNext = page < lastPage;

  return (
    <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 border-t border-border px-4 py-3 text-sm text-muted-foreground">
      <div className="flex items-center gap-2">
        <Field label="Rows per page" className="flex-row items-center gap-2 [&>label]:text-sm [&>label]:font-normal">
          <Select
            size="sm"
            value={pageSize}
            onChange={(e) => onPageSizeChange(Number(e.target.value) as TSize)}
            options={pageSizes.map((n) => ({ value: String(n), label: String(n) }))}
          />
        </Field>
      </div>
      <p id={rangeId} className="tabular-nums" aria-live="polite">
        {page > pageCount
          ? `No rows here; ${formatCount(total)} in all`
          : `${formatCount(first)}–${formatCount(last)} of ${formatCount(total)}`}
      </p>
      <nav aria-label="Pagination" className="flex items-center gap-1">
        <Button size="icon-sm" variant="ghost" aria-label="First page" disabled={!hasPrevious} onClick={() => onPageChange(1)}>
          <ChevronsLeft aria-hidden />
        </Button>
        <Button
          size="sm"
          variant="ghost"
          aria-label="Previous page"
          disabled={!hasPrevious}
          onClick={() => onPageChange(Math.min(page - 1, lastPage))}
        >
          <ChevronLeft aria-hidden />
          <span className="hidden sm:inline">Prev</span>
        </Button>
        <span className="px-1 whitespace-nowrap tabular-nums">
          Page {formatCount(page)} of {formatCount(lastPage)}
        </span>
        <Button size="sm" variant="ghost" aria-label="Next page" disabled={!hasNext} onClick={() => onPageChange(page + 1)}>
          <span className="hidden sm:inline">Next</span>
          <ChevronRight aria-hidden />
        </Button>
        <Button size="icon-sm" variant="ghost" aria-label="Last page" disabled={page >= lastPage} onClick={() => onPageChange(lastPage)}>
          <ChevronsRight aria-hidden />
        </Button>
      </nav>
    </div>
  );
}
