"use client";

import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Field } from "@/components/ui/field";
import { Textarea } from "@/components/ui/textarea";
import { runAction } from "@/lib/browser/action";
import { toast } from "@/lib/browser/toast";
import { previewBulkCancelAction, startBulkCancelAction } from "@/lib/console/invoices/actions";
import type { Invoice } from "@/lib/contract";
import { formatCount } from "@/lib/contract/format";
import type { InvoiceViewQuery } from "@/lib/contract/invoice-view";
import { invoiceListQueryToSearchParams, PAGE_SIZE_MAX, REASON_MAX } from "@/lib/contract/list-query";
import { problemSentence } from "@/lib/contract/problem";
import { problemToFields } from "@/lib/contract/problem-to-fields";
import { type ReceivedFacts, type ReceivedSummary, receivedSentence, receivedSummary } from "@/lib/contract/received";
import { type AnyInvoiceStatus, isKnownStatus, STATUS_LABELS } from "@/lib/contract/status";
import { ReceivedWarning } from "../status-change/status-change-parts";

/** What a selected row keeps: its id, and what the confirmation names (its status, what it has received). */
export type SelectedRow = Pick<Invoice, "invoice_id" | "order_id"> & ReceivedFacts;

/** Rows picked on any page of the view, by id, or every row of the view. */
export type Selection = { rows: ReadonlyMap<string, SelectedRow>; all: boolean };
const NO_SELECTION: Selection = { rows: new Map(), all: false };

type BarProps = {
  selection: Selection;
  pageRows: readonly SelectedRow[];
  /** How many invoices the view holds. */
  total: number;
  query: InvoiceViewQuery;
  /** The whole view's statuses (its totals), for the confirmation of "cancel all". */
  viewStatuses: Record<string, number> | null;
  mayCancel: false | { approvalOver: number };
  onChange: (next: Selection) => void;
  onExport: (query: InvoiceViewQuery) => void;
  onJobStarted: (jobId: string) => void;
};

/**
 * What can be done with the selected rows: select the whole view, cancel them with one reason (roles
 * that may change statuses), export them, copy their ids.
 */
export function SelectionBar({ selection, pageRows, total, query, viewStatuses, mayCancel, onChange, onExport, onJobStarted }: BarProps) {
  const [confirming, setConfirming] = useState(false);
  const count = selection.all ? total : selection.rows.size;
  if (count === 0) return null;
  const pageAll = pageRows.length > 0 && pageRows.every((r) => selection.rows.has(r.invoice_id));
  const ids = [...selection.rows.keys()];

  return (
    // Over the page's foot, not above the table: ticking a row never moves the rows under the pointer.
    <section
      aria-label="Selected invoices"
      className="fixed inset-x-3 bottom-3 z-30 mx-auto flex max-w-4xl flex-wrap items-center gap-2 rounded-lg border border-primary/50 bg-card px-3 py-2 text-sm shadow-lg ring-1 ring-primary/10 sm:inset-x-6"
    >
      <p aria-live="polite" className="font-medium" data-testid="selection-count">
        {selection.all ? `All ${formatCount(total)} invoices of this view selected` : `${formatCount(count)} selected`}
      </p>
      {!selection.all && pageAll && total > selection.rows.size && (
        <Button variant="link" onClick={() => onChange({ rows: selection.rows, all: true })}>
          Select all {formatCount(total)} in this view
        </Button>
      )}
      <div className="ml-auto flex flex-wrap gap-2">
        {mayCancel && (
          <Button variant="danger" size="sm" onClick={() => setConfirming(true)}>
            Cancel {count === 1 ? "invoice" : "invoices"}…
          </Button>
        )}
        <Button
          size="sm"
          disabled={!selection.all && ids.length > PAGE_SIZE_MAX}
          title={
            !selection.all && ids.length > PAGE_SIZE_MAX ? `A selection of more than ${PAGE_SIZE_MAX} exports as its whole view` : undefined
          }
          onClick={() => onExport(selection.all ? query : { ...query, ids })}
        >
          Export selection
        </Button>
        {!selection.all && (
          <Button
            size="sm"
            onClick={async () => {
              try {
                await navigator.clipboard.writeText(ids.join("\n"));
                toast.success(`Copied ${formatCount(ids.length)} invoice ${ids.length === 1 ? "id" : "ids"}.`);
              } catch {
                toast.error("Copy failed: this browser does not allow it here.");
              }
            }}
          >
            Copy ids
          </Button>
        )}
        <Button variant="ghost" size="sm" onClick={() => onChange(NO_SELECTION)}>
          Clear selection
        </Button>
      </div>
      {confirming && (
        <BulkCancelDialog
          selection={selection}
          total={total}
          query={query}
          viewStatuses={viewStatuses}
          approvalOver={mayCancel ? mayCancel.approvalOver : 0}
          onClose={() => setConfirming(false)}
          onStarted={(jobId) => {
            setConfirming(false);
            onChange(NO_SELECTION);
            onJobStarted(jobId);
          }}
        />
      )}
    </section>
  );
}

/** "2 Pending, 1 Partly paid": how many of each status, most first. */
function statusBreakdown(counts: Record<string, number>): string {
  return Object.entries(counts)
    .sort(([, a], [, b]) => b - a)
    .map(([status, n]) => `${formatCount(n)} ${isKnownStatus(status) ? STATUS_LABELS[status as AnyInvoiceStatus] : status}`)
    .join(", ");
}

function BulkCancelDialog(props: {
  selection: Selection;
  total: number;
  query: InvoiceViewQuery;
  viewStatuses: Record<string, number> | null;
  /** The policy's threshold: a larger cancel waits for one approval as a whole. */
  approvalOver: number;
  onClose: () => void;
  onStarted: (jobId: string) => void;
}) {
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | null>(null);
  // For the whole view, its statuses come from the totals the page already shows.
  const counts = props.selection.all
    ? (props.viewStatuses ?? {})
    : [...props.selection.rows.values()].reduce<Record<string, number>>((c, row) => {
        const status = row.status ?? "unknown";
        c[status] = (c[status] ?? 0) + 1;
        return c;
      }, {});
  const count = props.selection.all ? props.total : props.selection.rows.size;
  const closedOnes = (counts.completed ?? 0) + (counts.archived ?? 0) + (counts.cancelled ?? 0);
  const { page: _p, page_size: _s, ...view } = props.query;
  const viewSearch = invoiceListQueryToSearchParams(view).toString();
  const received = useReceived(props.selection, viewSearch);
  const waitsAsWhole = count > props.approvalOver;

  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => !open && props.onClose()}
      tone="danger"
      title={`Cancel ${formatCount(count)} ${count === 1 ? "invoice" : "invoices"}?`}
      description={
        <>
          {Object.keys(counts).length > 0 && <>Now: {statusBreakdown(counts)}. </>}
          {waitsAsWhole
            ? `More than ${formatCount(props.approvalOver)} invoices: the cancel waits for one approval by someone else, then runs. `
            : "Each is cancelled on its own, a few at a time; you can leave this page meanwhile. "}
          Each invoice&apos;s timeline records who cancelled it and why.
        </>
      }
      confirmLabel={waitsAsWhole ? "Ask for approval" : `Cancel ${formatCount(count)} ${count === 1 ? "invoice" : "invoices"}`}
      pendingLabel="Starting…"
      cancelLabel="Keep them"
      confirmDisabled={reason.trim() === ""}
      onOpenAutoFocus={(event) => {
        event.preventDefault();
        document.getElementById("bulk-reason")?.focus();
      }}
      onConfirm={async () => {
        const form = new FormData();
        form.set("reason", reason);
        if (props.selection.all) {
          form.set("view", viewSearch);
        } else {
          form.set("ids", [...props.selection.rows.keys()].join(","));
        }
        const { answer, problem } = await runAction(startBulkCancelAction, form);
        if (problem) {
          setError(problemToFields(problem, { fields: ["reason"] }).fields.reason ?? problemSentence(problem));
          return false;
        }
        props.onStarted(answer.jobId);
      }}
    >
      {received.state === "checking" && <p className="text-xs text-muted-foreground">Checking what these invoices have received…</p>}
      {received.state === "failed" && (
        <p className="text-xs text-muted-foreground">What these invoices have received could not be checked: {received.why}</p>
      )}
      {received.state === "known" && <ReceivedWarning sentence={receivedSentence(received.summary)} />}
      <Field id="bulk-reason" label="Reason (for every invoice's audit trail)" error={error}>
        <Textarea
          value={reason}
          maxLength={REASON_MAX}
          required
          onChange={(e) => {
            setReason(e.target.value);
            setError(null);
          }}
          placeholder="Orders voided by the customer"
        />
      </Field>
      {(closedOnes > 0 || (!waitsAsWhole && received.state === "known" && received.summary.withCrypto > 0)) && (
        <p className="text-xs text-muted-foreground">
          {waitsAsWhole
            ? "Completed, archived or cancelled ones are refused or answered by the provider, each saying so."
            : "Those that received crypto, and any already completed or cancelled, wait for approval each on its own; archived ones are refused. The result says so for each."}
        </p>
      )}
    </ConfirmDialog>
  );
}

type Received = { state: "checking" } | { state: "failed"; why: string } | { state: "known"; summary: ReceivedSummary };

/**
 * What the selected invoices have received: from the rows themselves, or, for a whole view (its rows are not
 * all in the page), asked of the server, which walks the view as the cancel will.
 */
function useReceived(selection: Selection, viewSearch: string): Received {
  const [asked, setAsked] = useState<Received>({ state: "checking" });
  useEffect(() => {
    if (!selection.all) return;
    let current = true;
    const form = new FormData();
    form.set("view", viewSearch);
    runAction(previewBulkCancelAction, form).then(({ answer, problem }) => {
      if (!current) return;
      setAsked(problem ? { state: "failed", why: problemSentence(problem) } : { state: "known", summary: answer.summary });
    });
    return () => {
      current = false;
    };
  }, [selection.all, viewSearch]);
  return selection.all ? asked : { state: "known", summary: receivedSummary([...selection.rows.values()]) };
}
