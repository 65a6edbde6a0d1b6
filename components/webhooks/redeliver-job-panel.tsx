"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useRef } from "react";
import { InvoiceLink } from "@/components/invoices/invoice-link";
import { Notice } from "@/components/ui/notice";
import { redeliverJobOptions } from "@/lib/browser/query/webhooks";
import type { RedeliverJob, RedeliverOutcome } from "@/lib/contract";
import { Problem, problemSentence } from "@/lib/contract/problem";

const OUTCOME_LABELS: Record<RedeliverOutcome, string> = {
  delivered: "Delivered",
  not_delivered: "Not delivered",
  failed: "Failed",
  not_run: "Not run",
};

/**
 * A resend job as it stands: how many deliveries came to what, and each one's result. The server draws it as it
 * was; the browser then follows the job alone and, once it ends, draws the page again so the deliveries' new
 * states show. Without script, its link reloads the page.
 */
export function RedeliverJobPanel({
  job: drawn,
  followHref,
  orderIds,
}: {
  job: RedeliverJob;
  followHref: string;
  /** The order ids the console's index knows, by invoice id. */
  orderIds: Record<string, string>;
}) {
  const { data: job, error } = useQuery(redeliverJobOptions(drawn));
  const router = useRouter();
  const endedHere = useRef(false);
  useEffect(() => {
    if (drawn.finished_at || !job.finished_at || endedHere.current) return;
    endedHere.current = true;
    router.refresh();
  }, [drawn.finished_at, job.finished_at, router]);
  const done = job.total - job.counts.waiting;
  return (
    <section aria-label="Resending failed webhooks" className="flex flex-col gap-2 rounded-lg border border-border p-4 text-sm">
      <Notice role="status" tone={job.finished_at ? "success" : "neutral"}>
        {job.finished_at ? "Resent" : "Resending"} {done} of {job.total} failed deliveries: {job.counts.delivered} delivered,{" "}
        {job.counts.not_delivered} not delivered, {job.counts.failed} failed
        {job.counts.not_run ? `, ${job.counts.not_run} not run` : ""}.{" "}
        {!job.finished_at && (
          <Link href={followHref} className="underline underline-offset-2">
            Reload to follow it
          </Link>
        )}
      </Notice>
      {error && !job.finished_at && (
        <Notice role="alert" tone="danger">
          {error instanceof Problem ? problemSentence(error) : error.message}
        </Notice>
      )}
      <ol className="flex flex-col gap-1">
        {job.items.map((item) => (
          <li key={item.webhook_id} data-outcome={item.outcome ?? "waiting"} className="flex flex-wrap gap-x-2">
            <span className="font-medium">{item.outcome ? OUTCOME_LABELS[item.outcome] : "Waiting"}</span>
            {/* The detail names the webhook; the invoice is what a person goes on to, by order id as the table names it. */}
            <InvoiceLink invoiceId={item.invoice_id} orderId={orderIds[item.invoice_id]} short className="text-xs" />
            {item.detail && <span className="text-muted-foreground">{item.detail}</span>}
          </li>
        ))}
      </ol>
    </section>
  );
}
