"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useTable, type SortingState } from "@tanstack/react-table";
import { useRouter } from "next/navigation";
import { useEffect, useMemo } from "react";
import { Button } from "@/components/ui/button";
import type { Invoice } from "@/lib/invoicing";
import { Problem } from "@/lib/problem";
import { invoiceListOptions } from "@/lib/query/invoices";
import { hasFilters, toListQuery } from "@/lib/query/invoice-list-state";
import { LIST_SEARCH_KEY } from "./back-to-list";
import { invoiceColumns, invoiceTableFeatures } from "./invoice-columns";
import { invoiceHref } from "./invoice-href";
import { InvoicePagination } from "./invoice-pagination";
import { useInvoiceListState } from "./use-invoice-list-state";

const EMPTY: Invoice[] = [];
type ColumnMeta = { className?: string } | undefined;

export function InvoiceTable() {
  const router = useRouter();
  const { state, update, resetFilters } = useInvoiceListState();
  const query = useMemo(() => toListQuery(state), [state]);
  const list = useQuery({ ...invoiceListOptions(query), placeholderData: keepPreviousData });
  useEffect(() => sessionStorage.setItem(LIST_SEARCH_KEY, window.location.search), [state]);

  const sorting: SortingState = [{ id: query.sort_by, desc: query.sort_order === "desc" }];
  const table = useTable({
    features: invoiceTableFeatures,
    columns: invoiceColumns,
    data: list.data?.items ?? EMPTY,
    getRowId: (row) => row.invoice_id,
    manualSorting: true,
    enableSortingRemoval: false,
    sortDescFirst: true,
    state: { sorting },
    onSortingChange: (updater) => {
      const [next] = typeof updater === "function" ? updater(sorting) : updater;
      if (next) update({ sort_by: next.id as typeof query.sort_by, sort_order: next.desc ? "desc" : "asc" });
    },
  });

  const refreshing = list.isFetching && list.isPlaceholderData;
  const rows = table.getRowModel().rows;

  return (
    <div className="overflow-hidden rounded-lg border border-zinc-200 bg-white shadow-xs">
      <div className="relative overflow-x-auto">
        {refreshing && (
          <div role="progressbar" aria-label="Loading invoices" className="absolute inset-x-0 top-0 h-0.5 animate-pulse bg-indigo-500" />
        )}
        <table className="w-full text-sm" aria-busy={list.isFetching} aria-describedby="invoice-range">
          <thead className="border-b border-zinc-200 bg-zinc-50 text-left text-xs font-medium tracking-wide text-zinc-600 uppercase">
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => {
                  const meta = header.column.columnDef.meta as ColumnMeta;
                  const sorted = header.column.getIsSorted();
                  const canSort = header.column.getCanSort();
                  return (
                    <th
                      key={header.id}
                      scope="col"
                      aria-sort={sorted === "asc" ? "ascending" : sorted === "desc" ? "descending" : undefined}
                      className={`px-2.5 py-2.5 whitespace-nowrap first:pl-4 last:pr-4 ${meta?.className ?? ""}`}
                    >
                      {canSort ? (
                        <button
                          type="button"
                          onClick={header.column.getToggleSortingHandler()}
                          className={`inline-flex items-center gap-1 uppercase hover:text-zinc-900 ${sorted ? "text-zinc-900" : ""}`}
                          title={`Sort by ${String(header.column.columnDef.header).toLowerCase()}`}
                        >
                          <table.FlexRender header={header} />
                          <span aria-hidden className="w-3 text-[10px]">
                            {sorted === "asc" ? "▲" : sorted === "desc" ? "▼" : "↕"}
                          </span>
                        </button>
                      ) : (
                        <table.FlexRender header={header} />
                      )}
                    </th>
                  );
                })}
              </tr>
            ))}
          </thead>
          <tbody className={`divide-y divide-zinc-100 ${refreshing ? "opacity-60" : ""}`}>
            {list.isPending
              ? Array.from({ length: Math.min(query.page_size, 10) }, (_, i) => <SkeletonRow key={i} />)
              : rows.map((row) => (
                  <tr
                    key={row.id}
                    onClick={(event) => {
                      // Selecting text (an order id to copy) is not a request to open the invoice.
                      if (window.getSelection()?.toString()) return;
                      const href = invoiceHref(row.original.invoice_id);
                      if (event.metaKey || event.ctrlKey) window.open(href, "_blank", "noopener");
                      else router.push(href);
                    }}
                    className="cursor-pointer hover:bg-indigo-50/40"
                  >
                    {row.getAllCells().map((cell) => (
                      <td key={cell.id} className={`px-2.5 py-2.5 whitespace-nowrap first:pl-4 last:pr-4 ${(cell.column.columnDef.meta as ColumnMeta)?.className ?? ""}`}>
                        <table.FlexRender cell={cell} />
                      </td>
                    ))}
                  </tr>
                ))}
          </tbody>
        </table>
      </div>
      {list.isError && !list.data ? (
        <ErrorState error={list.error} retry={() => list.refetch()} />
      ) : list.data && rows.length === 0 ? (
        <EmptyState
          pastTheEnd={list.data.pagination.total_records > 0}
          filtered={hasFilters(state)}
          lastPage={list.data.pagination.total_pages}
          onReset={resetFilters}
          onGoToPage={(page) => update({ page })}
        />
      ) : null}
      {list.isError && list.data && (
        <p role="alert" className="border-t border-rose-200 bg-rose-50 px-4 py-2 text-sm text-rose-800">
          Could not load this view: {problemText(list.error)}{" "}
          <button className="font-medium underline" onClick={() => list.refetch()}>
            Try again
          </button>
        </p>
      )}
      {list.data && list.data.pagination.total_records > 0 && (
        <InvoicePagination pagination={list.data.pagination} pageSize={state.page_size} onChange={update} />
      )}
    </div>
  );
}

function SkeletonRow() {
  return (
    <tr aria-hidden>
      {invoiceColumns.map((_, i) => (
        <td key={i} className="px-4 py-3">
          <div className="h-4 animate-pulse rounded bg-zinc-100" />
        </td>
      ))}
    </tr>
  );
}

function problemText(error: Error): string {
  return error instanceof Problem ? (error.detail ? `${error.title}. ${error.detail}` : error.title) : error.message;
}

function ErrorState({ error, retry }: { error: Error; retry: () => void }) {
  const title = error instanceof Problem ? error.title : "The invoices could not be loaded";
  const detail = error instanceof Problem ? error.detail : error.message;
  return (
    <div role="alert" className="flex flex-col items-center gap-3 px-6 py-14 text-center">
      <p className="font-medium text-zinc-900">{title}</p>
      {detail && <p className="max-w-lg text-sm text-zinc-600">{detail}</p>}
      <Button onClick={retry}>Try again</Button>
    </div>
  );
}

function EmptyState(props: {
  pastTheEnd: boolean;
  filtered: boolean;
  lastPage: number;
  onReset: () => void;
  onGoToPage: (page: number) => void;
}) {
  if (props.pastTheEnd) {
    return (
      <div className="flex flex-col items-center gap-3 px-6 py-14 text-center">
        <p className="font-medium text-zinc-900">This page is past the end of the list</p>
        <Button onClick={() => props.onGoToPage(props.lastPage)}>Go to the last page</Button>
      </div>
    );
  }
  return (
    <div className="flex flex-col items-center gap-3 px-6 py-14 text-center">
      <p className="font-medium text-zinc-900">{props.filtered ? "No invoices match these filters" : "No invoices yet"}</p>
      {props.filtered ? (
        <>
          <p className="text-sm text-zinc-600">Try another status, currency or date range.</p>
          <Button onClick={props.onReset}>Clear filters</Button>
        </>
      ) : (
        <p className="text-sm text-zinc-600">Invoices appear here as soon as the invoicing API issues them.</p>
      )}
    </div>
  );
}
