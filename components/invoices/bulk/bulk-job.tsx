"use client";

import { useQuery } from "@tanstack/react-query";
import { X } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { InvoiceLink } from "@/components/invoices/invoice-link";
import { Button } from "@/components/ui/button";
import { Progress } from "@/components/ui/progress";
import { runAction } from "@/lib/browser/action";
import { bulkJobListOptions, bulkJobOptions } from "@/lib/browser/query/invoices";
import { retryBulkCancelAction } from "@/lib/console/invoices/actions";
import type { BulkItem, BulkJob } from "@/lib/contract/bulk";
import { formatCount } from "@/lib/contract/format";
import { Problem, problemSentence } from "@/lib/contract/problem";

/**
 * A bulk cancel as it runs on the server: how far it is, why it stopped if it did, then each invoice that was
 * not cancelled and why, with "Try again" for those that failed. It keeps running if this page is left; coming
 * back shows it.
 */
export function BulkJobPanel({ jobId, onClose }: { jobId: string; onClose: () => void }) {
  const job = useQuery(bulkJobOptions(jobId));
  const router = useRouter();
  const finished = Boolean(job.data?.finished_at);
  // The list and its totals (rendered on the server) show the new statuses once the job is done.
  useEffect(() => {
    if (finished) router.refresh();
  }, [finished, router]);

  return (
    <section aria-label="Bulk cancel" className="flex flex-col gap-2 rounded-md border border-border bg-card p-3 text-sm">
      <div className="flex items-start justify-between gap-2">
        {job.data ? (
          <JobProgress job={job.data} />
        ) : job.isError ? (
          <p role="alert">{job.error instanceof Problem ? problemSentence(job.error) : job.error.message}</p>
        ) : (
          <p>Starting…</p>
        )}
        <Button variant="ghost" size="icon-sm" aria-label="Dismiss" onClick={onClose} className="-my-1 -mr-2 shrink-0">
          <X aria-hidden />
        </Button>
      </div>
      {job.data && <Unfinished job={job.data} onRetried={() => void job.refetch()} />}
    </section>
  );
}

/**
 * The person's bulk cancel under way, also after they left the page and came back (`started`: one begun on
 * this page). Loaded after the list, for the roles that may cancel.
 */
export function RunningBulkJob({ started, onClosed }: { started: string | null; onClosed: () => void }) {
  const recentJobs = useQuery(bulkJobListOptions());
  const [dismissed, setDismissed] = useState<string | null>(null);
  const running = recentJobs.data?.jobs.find((j) => !j.finished_at)?.id ?? null;
  const shown = started ?? (running !== dismissed ? running : null);
  if (!shown) return null;
  return (
    <BulkJobPanel
      key={shown}
      jobId={shown}
      onClose={() => {
        setDismissed(shown);
        onClosed();
      }}
    />
  );
}

function JobProgress({ job }: { job: BulkJob }) {
  const done = job.total - job.counts.waiting;
  const percent = job.total ? Math.round((done / job.total) * 100) : 100;
  const parts = [
    `${formatCount(job.counts.cancelled)} cancelled`,
    job.counts.refused ? `${formatCount(job.counts.refused)} refused` : null,
    job.counts.failed ? `${formatCount(job.counts.failed)} failed` : null,
    job.counts.duplicate ? `${formatCount(job.counts.duplicate)} ${job.counts.duplicate === 1 ? "repeat" : "repeats"} skipped` : null,
    job.counts.not_run ? `${formatCount(job.counts.not_run)} not run` : null,
    job.counts.awaiting_approval ? `${formatCount(job.counts.awaiting_approval)} waiting for approval` : null,
  ].filter(Boolean);
  const stopped = Boolean(job.finished_at) && job.counts.not_run > 0;
  if (job.approval) {
    return (
      <p aria-live="polite" data-testid="bulk-progress" className="min-w-0 flex-1">
        <span className="font-medium">Waiting for approval:</span> cancelling {formatCount(job.total)} invoices starts once someone else
        approves it. {job.approval.why}{" "}
        <Link href="/approvals" className="text-link underline-offset-4 hover:underline">
          Approvals
        </Link>
        <span className="ml-2 text-xs text-muted-foreground">Reason: {job.reason}</span>
      </p>
    );
  }
  return (
    <div className="flex min-w-0 flex-1 flex-col gap-1.5">
      <p aria-live="polite" data-testid="bulk-progress" className="tabular-nums">
        {stopped
          ? "Bulk cancel stopped: "
          : job.finished_at
            ? "Bulk cancel done: "
            : `Cancelling… ${formatCount(done)} of ${formatCount(job.total)}: `}
        {parts.join(", ")}.<span className="ml-2 text-xs text-muted-foreground">Reason: {job.reason}</span>
      </p>
      {!job.finished_at && <Progress value={percent} label="Bulk cancel progress" className="h-1.5" />}
    </div>
  );
}

/** How an invoice that was not cancelled is labelled in the list, and in which colour. */
const NOT_CANCELLED: Partial<Record<NonNullable<BulkItem["outcome"]>, { label: string; className: string }>> = {
  refused: { label: "Refused", className: "text-danger-text" },
  failed: { label: "Failed", className: "text-warning-text" },
  duplicate: { label: "Repeat", className: "text-muted-foreground" },
  not_run: { label: "Not run", className: "text-warning-text" },
  awaiting_approval: { label: "Waiting for approval", className: "text-caution-text" },
};

function Unfinished({ job, onRetried }: { job: BulkJob; onRetried: () => void }) {
  const [retrying, setRetrying] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const notCancelled = job.items.filter((i) => i.outcome && NOT_CANCELLED[i.outcome]);
  if (notCancelled.length === 0) return null;
  // Why the job stopped is one sentence for all it left (its person was disabled…): said once, not per row.
  const stoppedBecause = [...new Set(job.items.flatMap((i) => (i.outcome === "not_run" && i.detail ? [i.detail] : [])))];
  return (
    <>
      {stoppedBecause.map((why) => (
        <p key={why} role="alert" className="text-warning-text">
          {why}
        </p>
      ))}
      <ul className="flex max-h-60 flex-col divide-y divide-border overflow-y-auto rounded-md border border-border">
        {notCancelled.map((item) => {
          const shown = NOT_CANCELLED[item.outcome!]!;
          return (
            <li key={item.invoice_id} className="flex flex-wrap items-baseline gap-x-3 px-3 py-1.5">
              <InvoiceLink invoiceId={item.invoice_id} orderId={item.order_id ?? undefined} short className="text-xs" />
              <span className={shown.className}>{shown.label}</span>
              {item.outcome !== "not_run" && <span className="text-muted-foreground">{item.detail}</span>}
            </li>
          );
        })}
      </ul>
      {job.counts.failed > 0 && job.finished_at && (
        <div className="flex items-center gap-3">
          <Button
            size="sm"
            disabled={retrying}
            onClick={async () => {
              setRetrying(true);
              const form = new FormData();
              form.set("job", job.id);
              const { problem } = await runAction(retryBulkCancelAction, form);
              setRetrying(false);
              setMessage(problem ? problemSentence(problem) : null);
              onRetried();
            }}
          >
            {retrying ? "Starting…" : `Try the ${formatCount(job.counts.failed)} failed again`}
          </Button>
          {message && <p role="alert">{message}</p>}
        </div>
      )}
    </>
  );
}
