import { Send } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { EmptyState } from "@/components/ui/empty-state";
import { ProblemState } from "@/components/ui/problem-state";
import { BulkResendForm } from "@/components/webhooks/bulk-resend-form";
import { DeliveriesTable } from "@/components/webhooks/deliveries-table";
import { DeliveryFilterForm } from "@/components/webhooks/delivery-filter-form";
import { RedeliverJobPanel } from "@/components/webhooks/redeliver-job-panel";
import { guardPage } from "@/lib/console/bff/page";
import { requestTimeZone } from "@/lib/console/time-zone-server";
import { upstream } from "@/lib/console/upstream/client";
import { readRedeliverJob } from "@/lib/console/webhooks/bulk-redeliver";
import { NO_DELIVERIES_LOG, wholeInvoiceId } from "@/lib/console/webhooks/deliveries";
import { deliveryViewHref, readDeliveryView, toDeliveryQuery } from "@/lib/contract";
import { formatCount } from "@/lib/contract/format";
import { Problem } from "@/lib/contract/problem";
import { getDatabase } from "@/lib/platform/db";

export const metadata: Metadata = { title: "Webhook deliveries" };

export default async function DeliveriesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await guardPage("webhooks:manage");
  const params = await searchParams;
  const view = readDeliveryView(params);
  const jobId = typeof params.job === "string" ? params.job : undefined;
  if (view.invoice) {
    // An order id or the short id a table shows finds its invoice; the address then names it whole.
    const invoice = await wholeInvoiceId(await getDatabase(), view.invoice);
    // Only to an address that reads back as that id (a field is trimmed), or it would send here again.
    if (invoice !== view.invoice && readDeliveryView({ invoice }).invoice === invoice)
      redirect(deliveryViewHref({ ...view, invoice }, jobId));
  }
  const job = jobId ? await readRedeliverJob(await getDatabase(), user, jobId) : null;
  const { timeZone } = await requestTimeZone();
  const filtered = !!(view.state || view.invoice || view.from || view.to || view.page > 1);
  const clearFilters = (
    <Link href={deliveryViewHref({})} className="text-sm font-medium underline underline-offset-2">
      Clear filters
    </Link>
  );
  const query = toDeliveryQuery(view, timeZone);
  // Said in the form's words, before the provider's field names could say it.
  const page =
    view.from && view.to && view.from > view.to
      ? Problem.of("validation_failed", { detail: `To (${view.to}) is before From (${view.from}): choose a To on or after From.` })
      : query.success
        ? await upstream()
            .listAllWebhookDeliveries(query.data)
            .catch((error: unknown) => (error instanceof Problem ? error : Promise.reject(error)))
        : Problem.fromZod(query.error, "filter");

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
      {job && <RedeliverJobPanel job={job} followHref={deliveryViewHref(view, job.id)} />}
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
          <DeliveriesTable deliveries={page.items} mayResend />
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
    </div>
  );
}
