"use client";

import dynamic from "next/dynamic";
import { createContext, type ReactNode, useContext, useState } from "react";
import type { InvoiceViewQuery } from "@/lib/contract/invoice-view";
import type { ExportJob } from "../export/export-download";
import type { SelectedRow, Selection } from "./invoice-selection";

// What to do with selected rows loads once something is selected: the rows' first load does without it.
const SelectionBar = dynamic(() => import("./invoice-selection").then((m) => m.SelectionBar), { ssr: false });
const ExportDownload = dynamic(() => import("../export/export-download").then((m) => m.ExportDownload), { ssr: false });
const RunningBulkJob = dynamic(() => import("../bulk/bulk-job").then((m) => m.RunningBulkJob), { ssr: false });

const NO_SELECTION: Selection = { rows: new Map(), all: false };

type Context = { selection: Selection; pageRows: readonly SelectedRow[]; toggle: (rows: readonly SelectedRow[], on: boolean) => void };
const SelectionContext = createContext<Context | null>(null);

/**
 * Row selection over the server-rendered table: the checkboxes are small islands that read
 * this; the bar (select the whole view, cancel, export, copy ids) and a running bulk cancel load after.
 * A selection belongs to its view: the page gives this a `key` per filter, so another filter starts anew.
 */
export function SelectionProvider(props: {
  pageRows: SelectedRow[];
  total: number;
  query: InvoiceViewQuery;
  /** For "cancel the whole view": its statuses, from the totals the page shows. */
  viewStatuses: Record<string, number> | null;
  /** Whether this person may cancel (the policy), and above how many invoices a bulk cancel waits for approval. */
  mayCancel: false | { approvalOver: number };
  children: ReactNode;
}) {
  const [selection, setSelection] = useState<Selection>(NO_SELECTION);
  const [exportJob, setExportJob] = useState<ExportJob | null>(null);
  const [jobId, setJobId] = useState<string | null>(null);
  const toggle = (rows: readonly SelectedRow[], on: boolean) => {
    const next = new Map(selection.rows);
    for (const row of rows) {
      if (on) next.set(row.invoice_id, row);
      else next.delete(row.invoice_id);
    }
    setSelection({ rows: next, all: false });
  };
  const count = selection.all ? props.total : selection.rows.size;
  return (
    <SelectionContext.Provider value={{ selection, pageRows: props.pageRows, toggle }}>
      <div className="flex flex-col gap-3">
        {props.mayCancel && <RunningBulkJob started={jobId} onClosed={() => setJobId(null)} />}
        {count > 0 && (
          <SelectionBar
            selection={selection}
            pageRows={props.pageRows}
            total={props.total}
            query={props.query}
            viewStatuses={props.viewStatuses}
            mayCancel={props.mayCancel}
            onChange={setSelection}
            onExport={(exportQuery) => setExportJob({ id: Date.now(), format: "csv", bom: false, query: exportQuery })}
            onJobStarted={setJobId}
          />
        )}
        {exportJob && (
          <ExportDownload
            key={exportJob.id}
            job={exportJob}
            onRetry={() => setExportJob({ ...exportJob, id: Date.now() })}
            onClose={() => setExportJob(null)}
          />
        )}
        {props.children}
        {/* Room under the list for the selection's bar, which floats over the page's foot. */}
        {count > 0 && <div aria-hidden className="h-28 sm:h-14" />}
      </div>
    </SelectionContext.Provider>
  );
}

/** The header's checkbox: the rows of this page. */
export function PageCheckbox() {
  const context = useContext(SelectionContext);
  if (!context) return null;
  const { selection, pageRows, toggle } = context;
  const pageSelected = pageRows.length > 0 && pageRows.every((r) => selection.all || selection.rows.has(r.invoice_id));
  return (
    <input
      type="checkbox"
      className="size-4 align-middle accent-primary"
      aria-label={pageSelected ? "Unselect the rows of this page" : "Select the rows of this page"}
      checked={pageSelected}
      onChange={(e) => toggle(pageRows, e.target.checked)}
    />
  );
}

/** A row's checkbox. */
export function RowCheckbox({ row }: { row: SelectedRow }) {
  const context = useContext(SelectionContext);
  const label = `Select invoice ${row.order_id ?? row.invoice_id}`;
  if (!context) return <input type="checkbox" disabled className="size-4 align-middle" aria-label={label} />;
  return (
    <input
      type="checkbox"
      className="size-4 align-middle accent-primary"
      aria-label={label}
      checked={context.selection.all || context.selection.rows.has(row.invoice_id)}
      onChange={(e) => context.toggle([row], e.target.checked)}
    />
  );
}
