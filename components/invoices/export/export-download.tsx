"use client";

import { X } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Notice } from "@/components/ui/notice";
import { Progress } from "@/components/ui/progress";
import { exportEnding, rowCounter } from "@/lib/browser/query/export-download";
import { readProblem } from "@/lib/browser/query/fetch-json";
import { saveFile } from "@/lib/browser/save-file";
import { EXPORT_TOTAL_HEADER, type ExportFormat, invoiceListQueryToSearchParams } from "@/lib/contract";
import { formatCount } from "@/lib/contract/format";
import type { InvoiceViewQuery } from "@/lib/contract/invoice-view";
import { problemSentence } from "@/lib/contract/problem";

export type ExportJob = { id: number; format: ExportFormat; bom: boolean; query: InvoiceViewQuery };
type RowsRead = { rows: number; total: number | null };
type Outcome =
  | { kind: "done"; rows: number; fileName: string }
  | { kind: "incomplete"; rows: number; fileName: string; message: string }
  | { kind: "failed"; message: string }
  | { kind: "cancelled" };

const TYPES = { csv: "text/csv;charset=utf-8", json: "application/json" } as const;
/** Enough of the end of the file to hold its ending (the incomplete mark is one short line). */
const TAIL_BYTES = 64 * 1024;

/**
 * One export, from the first byte to the saved file: the rows so far of the total while the server walks the
 * provider, a Cancel that stops the walk, and what happened at the end — saved whole, saved but marked
 * incomplete (the provider failed midway), failed, or cancelled.
 */
export function ExportDownload({ job, onRetry, onClose }: { job: ExportJob; onRetry: () => void; onClose: () => void }) {
  const [progress, setProgress] = useState<RowsRead>({ rows: 0, total: null });
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const abort = useRef<AbortController | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    abort.current = controller;
    let live = true;
    void runExport(job, controller.signal, (p) => live && setProgress(p)).then((o) => live && setOutcome(o));
    return () => {
      live = false;
      controller.abort();
    };
  }, [job]);

  const label = job.format === "csv" ? (job.bom ? "CSV for Excel" : "CSV") : "JSON";
  const of = (rows: number, total: number | null) => (total === null ? formatCount(rows) : `${formatCount(rows)} of ${formatCount(total)}`);
  const close = (
    <Button variant="ghost" size="icon-sm" aria-label="Dismiss" onClick={onClose} className="-my-1 -mr-2 shrink-0">
      <X aria-hidden />
    </Button>
  );

  if (!outcome) {
    const percent = progress.total ? Math.min(100, Math.round((progress.rows / progress.total) * 100)) : 0;
    return (
      <section aria-label="Export" className="order-last flex w-full flex-col gap-2 rounded-md border border-border bg-card p-3 text-sm">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p aria-live="polite" data-testid="export-progress" className="tabular-nums">
            {progress.total === null
              ? `Preparing the ${label} export…`
              : `Exporting ${label}: ${of(progress.rows, progress.total)} invoices`}
          </p>
          <Button size="sm" onClick={() => abort.current?.abort()}>
            Cancel export
          </Button>
        </div>
        <Progress value={percent} label="Export progress" />
      </section>
    );
  }

  const box = "order-last flex w-full items-start justify-between gap-3";
  switch (outcome.kind) {
    case "done":
      return (
        <Notice tone="success" role="status" className={box}>
          <p data-testid="export-outcome">
            Exported {formatCount(outcome.rows)} invoices to <span className="font-mono break-all">{outcome.fileName}</span>.
          </p>
          {close}
        </Notice>
      );
    case "cancelled":
      return (
        <Notice role="status" className={box}>
          <p data-testid="export-outcome">Export cancelled; nothing was saved.</p>
          {close}
        </Notice>
      );
    case "incomplete":
    case "failed":
      return (
        <Notice tone="danger" role="alert" className={box}>
          <div className="flex flex-col gap-1" data-testid="export-outcome">
            {outcome.kind === "incomplete" ? (
              <p className="font-medium">
                The export is incomplete: <span className="font-mono break-all">{outcome.fileName}</span> holds only the first{" "}
                {formatCount(outcome.rows)} invoices, and its last line says so.
              </p>
            ) : (
              <p className="font-medium">The export failed; nothing was saved.</p>
            )}
            <p>{outcome.message.replace(/^EXPORT INCOMPLETE: only the first [\d,]+ rows are here\. /, "")}</p>
            <div>
              <Button size="sm" onClick={onRetry}>
                Export again
              </Button>
            </div>
          </div>
          {close}
        </Notice>
      );
  }
}

async function runExport(job: ExportJob, signal: AbortSignal, onProgress: (p: RowsRead) => void): Promise<Outcome> {
  const { page: _page, page_size: _size, ...filter } = job.query;
  const params = invoiceListQueryToSearchParams(filter);
  params.set("format", job.format);
  if (job.bom) params.set("bom", "1");

  let response: Response;
  try {
    response = await fetch(`/api/invoices/export?${params}`, { signal });
  } catch {
    return signal.aborted
      ? { kind: "cancelled" }
      : { kind: "failed", message: "The console cannot be reached. Check your connection and export again." };
  }
  if (!response.ok || !response.body) {
    // A 401 also sends the person to sign in again (readProblem).
    const problem = await readProblem(response);
    return { kind: "failed", message: problemSentence(problem) };
  }

  const total = Number(response.headers.get(EXPORT_TOTAL_HEADER) ?? NaN);
  const fileName = /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "")?.[1] ?? `invoices.${job.format}`;
  const counter = rowCounter(job.format);
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let rows = 0;
  onProgress({ rows, total: Number.isFinite(total) ? total : null });
  try {
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      rows = counter.push(value);
      onProgress({ rows, total: Number.isFinite(total) ? total : null });
    }
  } catch {
    if (signal.aborted) return { kind: "cancelled" };
    return { kind: "failed", message: `The connection broke after ${formatCount(rows)} invoices. Export again.` };
  }

  const ending = exportEnding(await new Blob(tail(chunks)).text(), job.format);
  saveFile(new Blob(chunks, { type: TYPES[job.format] }), fileName);
  if (ending.complete) return { kind: "done", rows, fileName };
  // The incomplete mark is itself a line; the rows are those before it.
  return { kind: "incomplete", rows: Math.max(0, rows - (job.format === "csv" ? 1 : 0)), fileName, message: ending.message };
}

function tail(chunks: Uint8Array<ArrayBuffer>[]): Uint8Array<ArrayBuffer>[] {
  const kept: Uint8Array<ArrayBuffer>[] = [];
  let size = 0;
  for (let i = chunks.length - 1; i >= 0 && size < TAIL_BYTES; i--) {
    kept.unshift(chunks[i]);
    size += chunks[i].length;
  }
  return kept;
}
