import { Send } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { EmptyState } from "@/components/ui/empty-state";
import { Notice } from "@/components/ui/notice";
import { ProblemState } from "@/components/ui/problem-state";
import { BulkResendForm } from "@/components/webhooks/bulk-resend-form";
import { DeliveriesTable } from "@/components/webhooks/deliveries-table";
import { DeliveryFilterForm } from "@/components/webhooks/delivery-filter-form";
import { RedeliverJobPanel } from "@/components/webhooks/redeliver-job-panel";
import { ResendOutcomeNotice, ResendOutcomes } from "@/components/webhooks/resend-outcome";
import { guardPage } from "@/lib/console/bff/page";
import { indexedOrderIds } from "@/lib/console/mirror/store";
import { requestTimeZone } from "@/lib/console/time-zone-server";
import { upstream } from "@/lib/console/upstream/client";
import { readRedeliverJob } from "@/lib/console/webhooks/bulk-redeliver";
import { deliveryQueryOf, inFieldWords, NO_DELIVERIES_LOG } from "@/lib/console/webhooks/deliveries";
import { deliveryViewHref, readDeliveryView } from "@/lib/contract";
import { formatCount } from "@/lib/contract/format";
import { invoiceHref } from "@/lib/contract/invoice-href";
import { Problem } from "@/lib/contract/problem";
import { getDatabase } from "@/lib/platform/db";

export const metadata: Metadata = { title: "Webhook deliveries" };

export default async function DeliveriesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await guardPage("webhooks:manage");
  const params = await searchParams;
  const view = readDeliveryView(params);
  const jobId = typeof params.job === "string" ? params.job : undefined;
  // The filter form is a plain GET, which sends its empty fields too: the view's address holds only what is set.
  if (Object.values(params).some((value) => value === "")) redirect(deliveryViewHref(view, jobId));
  const db = await getDatabase();
  const job = jobId ? await readRedeliverJob(db, user, jobId) : null;
  const { timeZone } = await requestTimeZone();
  const filtered = !!(view.state || view.invoice || view.from || view.to || view.page > 1);
  const clearFilters = (
    <Link href={deliveryViewHref({})} className="text-sm font-medium underline underline-offset-2">
      Clear filters
    </Link>
  );
  // An order id or the short id a table shows finds its invoice; the field keeps what was typed.
  const { invoice, query } = await deliveryQueryOf(db, view, timeZone);
  // Said in the form's words, before the provider's field names could say it.
  const page =
    view.from && view.to && view.from > view.to
      ? Problem.of("validation_failed", { detail: `To (${view.to}) is before From (${view.from}): choose a To on or after From.` })
      : query.success
        ? await upstream()
            .listAllWebhookDeliveries(query.data)
            .catch((error: unknown) => (error instanceof Problem ? inFieldWords(error, view.invoice) : Promise.reject(error)))
        : Problem.fromZod(query.error, "filter");
  // The order ids of the invoices on the page and in the resend job, from the console's index, in one read.
  const orderIds = await indexedOrderIds(db, [
    ...(page && !(page instanceof Problem) ? page.items.flatMap((d) => d.invoice_id ?? []) : []),
    ...(job?.items.map((item) => item.invoice_id) ?? []),
  ]).catch(() => undefined);

  return (
    <div className="flex flex-col gap-6">
      <div>
        <p className="text-sm">
          <Link href="/webhooks" className="underline underline-offset-2">
            Webhooks
          </Link>
        </p>
        <h1 className="text-2xl font-semibold tracking-tight">Deliveries</h1>
        <p className="mt-1 text-sm text-muted-foreground">
          Every webhook the invoicing API sent, newest first: what each receiver answered, and when the next retry is due.
        </p>
      </div>
      <DeliveryFilterForm view={view} timeZone={timeZone} />
      {invoice && invoice !== view.invoice && (
        <p className="-mt-3 text-sm text-muted-foreground">
          “{view.invoice}” is invoice{" "}
          <Link href={invoiceHref(invoice)} className="font-mono break-all text-foreground underline underline-offset-2">
            {invoice}
          </Link>
          .
        </p>
      )}
      {job ? (
        <RedeliverJobPanel job={job} followHref={deliveryViewHref(view, job.id)} orderIds={Object.fromEntries(orderIds ?? [])} />
      ) : (
        jobId && (
          <Notice role="status" tone="warning">
            No resend job of yours has the id in this address.
          </Notice>
        )
      )}
      <ResendOutcomes key={deliveryViewHref(view)}>
        <ResendOutcomeNotice />
        {page === null ? (
          <EmptyState
            title="No deliveries log"
            description={`${NO_DELIVERIES_LOG} The webhook inbox on the Webhooks page shows what arrived here.`}
          />
        ) : page instanceof Problem ? (
          <ProblemState problem={page} action={filtered ? clearFilters : undefined} />
        ) : page.items.length === 0 ? (
          <EmptyState
            icon={<Send />}
            title={filtered ? "No deliveries match this view" : "No webhooks sent yet"}
            description={
              filtered
                ? view.from || view.to
                  ? "Widen the dates or clear a filter."
                  : "Clear a filter to see more."
                : "Each webhook the invoicing API sends appears here, with what its receiver answered. Send a test webhook to see one."
            }
            action={
              filtered ? (
                clearFilters
              ) : (
                <Link href="/webhooks" className="text-sm font-medium underline underline-offset-2">
                  Send a test webhook
                </Link>
              )
            }
          />
        ) : (
          <>
            {view.state === "failed" && <BulkResendForm view={view} count={page.pagination.total_records} />}
            <DeliveriesTable deliveries={page.items} orderIds={orderIds} mayResend />
            <nav aria-label="Pages" className="flex items-center gap-3 text-sm">
              <span className="tabular-nums">
                Page {page.pagination.current_page} of {Math.max(page.pagination.total_pages, 1)} ·{" "}
                {formatCount(page.pagination.total_records)} {page.pagination.total_records === 1 ? "delivery" : "deliveries"}
              </span>
              {page.pagination.has_previous && (
                <Link href={deliveryViewHref({ ...view, page: view.page - 1 })} className="underline underline-offset-2">
                  Newer
                </Link>
              )}
              {page.pagination.has_next && (
                <Link href={deliveryViewHref({ ...view, page: view.page + 1 })} className="underline underline-offset-2">
                  Older
                </Link>
              )}
            </nav>
          </>
        )}
      </ResendOutcomes>
    </div>
  );
}
