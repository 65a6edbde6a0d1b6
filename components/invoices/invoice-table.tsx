"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { type SortingState, useTable } from "@tanstack/react-table";
import dynamic from "next/dynamic";
import { useRouter } from "next/navigation";
import { useEffect, useMemo, useState } from "react";
import { DataTable } from "@/components/data-table/data-table";
import { useTimeZone } from "@/components/time-zone/time-zone-provider";
import { Button } from "@/components/ui/button";
import { bulkJobListOptions, invoiceListOptions, viewFilter } from "@/lib/browser/query/invoices";
import type { Invoice } from "@/lib/contract";
import { hasFilters, serializeInvoiceListState, toListQuery } from "@/lib/contract/invoice-list-state";
import { busySeconds, Problem, problemSentence } from "@/lib/contract/problem";
import { BulkJobPanel } from "./bulk-job";
import type { ExportJob } from "./export-download";
import { invoiceColumns, invoiceTableFeatures } from "./invoice-columns";
import { invoiceHref, rememberListSearch } from "./invoice-href";
import { InvoicePagination } from "./invoice-pagination";
import { NO_SELECTION, type Selection, SelectionBar, selectColumn } from "./invoice-selection";
import { useInvoiceListState } from "./use-invoice-list-state";

// Shown only when a view has no rows or the list is busy: loaded then (rendered on the server as well), not
// with the table's usual first load, a page of rows.
const InvoiceTableMessage = dynamic(() => import("./invoice-table-message").then((m) => m.InvoiceTableMessage));
const BusyNotice = dynamic(() => import("@/components/ui/busy-notice").then((m) => m.BusyNotice));
const ExportDownload = dynamic(() => import("./export-download").then((m) => m.ExportDownload), { ssr: false });

const EMPTY: Invoice[] = [];

/**
 * The invoice list: URL state in, the API's page out, on the generic data-table parts; rows can be selected
 * for a bulk cancel (`mayCancel`), an export or their ids (issue 24).
 */
export function InvoiceTable({ mayCancel = false }: { mayCancel?: boolean }) {
  const router = useRouter();
  const { state, update, resetFilters } = useInvoiceListState();
  // Days counted in the zone the server decided (lib/contract/time-zone.ts), so this is the query it prefetched.
  const timeZone = useTimeZone();
  const query = useMemo(() => toListQuery(state, timeZone), [state, timeZone]);
  const list = useQuery({ ...invoiceListOptions(query), placeholderData: keepPreviousData });
  // A selection belongs to its view: another filter starts a new one (paging and sorting keep it).
  const filterKey = JSON.stringify(viewFilter(query));
  const [selection, setSelection] = useState<Selection & { of?: string }>(NO_SELECTION);
  const selected: Selection = selection.of === filterKey ? selection : NO_SELECTION;
  const select = (next: Selection) => setSelection({ ...next, of: filterKey });
  const [exportJob, setExportJob] = useState<ExportJob | null>(null);
  // The person's bulk cancel under way, also after they left the page and came back.
  const recentJobs = useQuery({ ...bulkJobListOptions(), enabled: mayCancel });
  const [jobId, setJobId] = useState<string | null>(null);
  const [dismissed, setDismissed] = useState<string | null>(null);
  const running = recentJobs.data?.jobs.find((j) => !j.finished_at)?.id ?? null;
  const shownJob = jobId ?? (running !== dismissed ? running : null);
  // From the state, not from window.location: nuqs writes the URL after this effect, so the address bar
  // still held the previous view (page 1 while page 2 showed).
  useEffect(() => rememberListSearch(serializeInvoiceListState(state)), [state]);

  const sorting: SortingState = [{ id: query.sort_by, desc: query.sort_order === "desc" }];
  const table = useTable({
    features: invoiceTableFeatures,
    // The checkbox column reads the selection: made anew with it (a page holds at most 100 rows).
    columns: [selectColumn(selected, list.data?.items ?? EMPTY, select), ...invoiceColumns],
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

  const rows = table.getRowModel().rows;
  const pagination = list.data?.pagination;
  // The console shed this request (503, Retry-After) and the query asks again by itself once that has passed.
  const busy = list.isFetching && list.failureCount > 0 ? busySeconds(list.failureReason) : null;

  let message = null;
  if (list.isError && !list.data) {
    message = <InvoiceTableMessage kind="error" error={list.error} onRetry={() => list.refetch()} />;
  } else if (pagination && rows.length === 0) {
    message =
      pagination.total_records > 0 ? (
        <InvoiceTableMessage kind="past-end" onLastPage={() => update({ page: pagination.total_pages })} />
      ) : list.data?.mirror?.state === "filling" ? (
        <InvoiceTableMessage kind="filling" />
      ) : hasFilters(state) ? (
        <InvoiceTableMessage kind="no-match" onClearFilters={resetFilters} />
      ) : (
        <InvoiceTableMessage kind="no-invoices" />
      );
  }

  return (
    <div className="flex flex-col gap-3">
      {shownJob && (
        <BulkJobPanel
          key={shownJob}
          jobId={shownJob}
          onClose={() => {
            setDismissed(shownJob);
            setJobId(null);
          }}
        />
      )}
      <SelectionBar
        selection={selected}
        pageRows={list.data?.items ?? EMPTY}
        total={pagination?.total_records ?? 0}
        query={query}
        mayCancel={mayCancel}
        onChange={select}
        onExport={(exportQuery) => setExportJob({ id: Date.now(), format: "csv", bom: false, query: exportQuery })}
        onJobStarted={setJobId}
      />
      {exportJob && (
        <ExportDownload
          key={exportJob.id}
          job={exportJob}
          onRetry={() => setExportJob({ ...exportJob, id: Date.now() })}
          onClose={() => setExportJob(null)}
        />
      )}
      <DataTable
        table={table}
        caption="Invoices"
        aria-describedby={pagination && pagination.total_records > 0 ? "invoice-range" : undefined}
        loading={list.isPending}
        skeletonRows={Math.min(query.page_size, 10)}
        refreshing={list.isFetching && list.isPlaceholderData}
        onRowClick={(row, event) => {
          const href = invoiceHref(row.original.invoice_id);
          if (event.metaKey || event.ctrlKey) window.open(href, "_blank", "noopener");
          else router.push(href);
        }}
        message={message}
        notice={
          busy !== null ? (
            <BusyNotice key={list.failureCount} seconds={busy} className="rounded-none border-x-0 border-b-0" />
          ) : (
            list.isError &&
            list.data && (
              <p role="alert" className="border-t border-danger-border bg-danger-muted px-4 py-2 text-sm text-danger-text">
                Could not load this view: {problemText(list.error)}{" "}
                <Button variant="link" className="font-medium text-danger-text underline" onClick={() => list.refetch()}>
                  Try again
                </Button>
              </p>
            )
          )
        }
        footer={
          pagination &&
          pagination.total_records > 0 && <InvoicePagination pagination={pagination} pageSize={state.page_size} onChange={update} />
        }
      />
    </div>
  );
}

function problemText(error: Error): string {
  return error instanceof Problem ? problemSentence(error) : error.message;
}
