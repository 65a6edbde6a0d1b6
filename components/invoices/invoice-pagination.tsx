"use client";

import { DataTablePagination } from "@/components/data-table/pagination";
import type { Pagination } from "@/lib/contract";
import { PAGE_SIZES } from "@/lib/contract/invoice-list-state";

type PageSize = (typeof PAGE_SIZES)[number];

/** The invoice list's pagination: the API's page numbers onto the generic control, state into the URL. */
export function InvoicePagination({
  pagination,
  pageSize,
  onChange,
}: {
  pagination: Pagination;
  pageSize: PageSize;
  onChange: (patch: { page?: number; page_size?: PageSize }) => void;
}) {
  return (
    <DataTablePagination
      page={pagination.current_page}
      pageCount={pagination.total_pages}
      pageSize={pageSize}
      // The range line counts the rows on screen as the API paged them, also while a new size loads.
      shownPageSize={pagination.page_size}
      pageSizes={PAGE_SIZES}
      total={pagination.total_records}
      rangeId="invoice-range"
      onPageChange={(page) => onChange({ page })}
      onPageSizeChange={(page_size) => onChange({ page_size })}
    />
  );
}
