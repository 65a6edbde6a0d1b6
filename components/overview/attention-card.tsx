import { CircleCheck } from "lucide-react";
import Link from "next/link";
import { StatusBadge } from "@/components/invoices/status-badge";
import { EmptyState } from "@/components/ui/empty-state";
import { loadAttention } from "@/lib/console/overview/load";
import { requestTimeZone } from "@/lib/console/time-zone-server";
import { formatCount, formatFiat, MISSING, shortInvoiceId } from "@/lib/contract/format";
import { formatDateTime, formatDayIn } from "@/lib/contract/format-date";
import { invoiceHref } from "@/lib/contract/invoice-href";
import { serializeInvoiceListState } from "@/lib/contract/invoice-list-state";
import { OverviewCard, OverviewCardError } from "./overview-card";

export const ATTENTION = { id: "attention", title: "Needs attention" };

const oldestFirst = (status: "paid_partial" | "pending", to?: string) =>
  serializeInvoiceListState("/invoices", { status: [status], sort_order: "asc", ...(to ? { to: new Date(`${to}T00:00:00.000Z`) } : {}) });

/** Partly paid invoices and those pending since before yesterday, oldest first, whatever the period. */
export async function AttentionCard({ className }: { className?: string }) {
  const { timeZone } = await requestTimeZone();
  let attention: Awaited<ReturnType<typeof loadAttention>>;
  try {
    attention = await loadAttention(timeZone);
  } catch (error) {
    return <OverviewCardError {...ATTENTION} className={className} error={error} />;
  }
  const { items, partlyPaid, pendingBeforeYesterday, lastDay } = attention;
  return (
    <OverviewCard
      {...ATTENTION}
      className={className}
      description={
        <>
          <Link href={oldestFirst("paid_partial")} className="text-link underline-offset-4 hover:underline">
            {formatCount(partlyPaid)} partly paid
          </Link>
          {" · "}
          <Link href={oldestFirst("pending", lastDay)} className="text-link underline-offset-4 hover:underline">
            {formatCount(pendingBeforeYesterday)} pending since before yesterday
          </Link>
          . Oldest first, from any date.
        </>
      }
    >
      {items.length === 0 ? (
        <EmptyState
          className="py-6"
          icon={<CircleCheck />}
          title="Nothing needs attention"
          description="No invoice is partly paid, and none has been pending since before yesterday."
        />
      ) : (
        <ol className="flex flex-col" aria-label="Invoices needing attention, oldest first">
          {items.map((invoice) => (
            <li key={invoice.invoice_id} className="border-b border-border last:border-b-0">
              <Link
                href={invoiceHref(invoice.invoice_id)}
                className="-mx-2 grid grid-cols-[1fr_auto] items-center gap-x-4 gap-y-1 rounded-md px-2 py-2.5 hover:bg-accent sm:grid-cols-[minmax(0,1fr)_auto_8rem_7rem]"
              >
                {/* On a phone the name takes a line of its own under the order id, so it is not cut to nothing. */}
                <span className="min-w-0 font-medium sm:truncate">
                  <span className="block truncate sm:inline">{invoice.order_id ?? shortInvoiceId(invoice.invoice_id)}</span>
                  {invoice.order_name && (
                    <span className="block truncate text-sm font-normal text-muted-foreground sm:ml-2 sm:inline sm:text-base">
                      <bdi>{invoice.order_name}</bdi>
                    </span>
                  )}
                </span>
                <span className="justify-self-end sm:justify-self-start">
                  <StatusBadge status={invoice.status} />
                </span>
                <span className="text-sm tabular-nums sm:text-right">{formatFiat(invoice.fiat_amount, invoice.fiat_currency)}</span>
                <span className="justify-self-end text-sm text-muted-foreground tabular-nums">
                  {invoice.created_at ? (
                    <time dateTime={invoice.created_at} title={formatDateTime(invoice.created_at, timeZone)}>
                      {formatDayIn(invoice.created_at, timeZone)}
                    </time>
                  ) : (
                    MISSING
                  )}
                </span>
              </Link>
            </li>
          ))}
        </ol>
      )}
    </OverviewCard>
  );
}
