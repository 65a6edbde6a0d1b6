import type { Metadata } from "next";
import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import { WaitingForApproval } from "@/components/approvals/waiting-for-approval";
import { BackToList } from "@/components/invoices/detail/back-to-list";
import { InvoicePayment, InvoiceTransactions } from "@/components/invoices/detail/invoice-payment";
import { InvoiceSection } from "@/components/invoices/detail/invoice-section";
import { InvoiceTimeline } from "@/components/invoices/detail/invoice-timeline";
import { PricedInNote } from "@/components/invoices/detail/priced-in";
import { ProviderFields } from "@/components/invoices/detail/provider-fields";
import { StatusBadge } from "@/components/invoices/status-badge";
import { StatusChange } from "@/components/invoices/status-change/status-change";
import { LazyWorthToday } from "@/components/rates/lazy-worth-today";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { DescriptionItem, DescriptionList } from "@/components/ui/description-list";
import { LazyRetryOnceWhenBusy as RetryOnceWhenBusy } from "@/components/ui/lazy-busy-notice";
import { ProblemState } from "@/components/ui/problem-state";
import { ServerDateTime as DateTime } from "@/components/ui/server-date-time";
import { SendTestWebhook } from "@/components/webhooks/send-test-webhook";
import { readTransitionPolicy } from "@/lib/console/approvals/policy-store";
import { pendingApprovalFor } from "@/lib/console/approvals/store";
import { auditTrail } from "@/lib/console/audit";
import { guardPage } from "@/lib/console/bff/page";
import { invoiceAuditTarget } from "@/lib/console/invoices/change-status";
import { buildTimeline, type TimelineWebhooks } from "@/lib/console/invoices/timeline";
import { search } from "@/lib/console/mirror";
import { upstream } from "@/lib/console/upstream/client";
import { listInbox } from "@/lib/console/webhooks/inbox";
import type { Invoice } from "@/lib/contract";
import { formatCrypto, formatFiat, formatRateEur, formatRateEurShort, MISSING, shortInvoiceId } from "@/lib/contract/format";
import { invoiceHref } from "@/lib/contract/invoice-href";
import { canonicalListSearch } from "@/lib/contract/list-search";
import { openByIdTarget } from "@/lib/contract/open-by-id";
import { busySeconds, Problem } from "@/lib/contract/problem";
import { hasReceivedCrypto } from "@/lib/contract/received";
import { can } from "@/lib/contract/roles";
import { awaitsPayment } from "@/lib/contract/status";
import { mayAskAnything, offersWhileWaiting, transitionOffers } from "@/lib/contract/transition-policy";
import { getDatabase } from "@/lib/platform/db";
import { log } from "@/lib/platform/observability/log";

type Props = { params: Promise<{ id: string }>; searchParams?: Promise<Record<string, string | string[] | undefined>> };

async function loadInvoice(id: string): Promise<Invoice | Problem> {
  try {
    return await upstream().getInvoice(id);
  } catch (error) {
    if (error instanceof Problem) return error;
    throw error;
  }
}

/**
 * The id exactly as it was linked or pasted. Next.js hands page params over still percent-encoded, so they are
 * decoded here, once; a segment that is not valid percent-encoding is taken as it is.
 */
async function invoiceId(params: Props["params"]): Promise<string> {
  const raw = (await params).id;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/**
 * An id the provider does not know may be what the index knows as an order id or an invoice id's tail (typed or
 * pasted into the address): opened as "Open by invoice or order id" would. Else the 404.
 */
async function openElsewhereOrNotFound(id: string): Promise<never> {
  const answer = await search(id).catch(() => null);
  const target = answer ? openByIdTarget(id, answer.results) : null;
  if (target?.kind === "invoice" && target.id !== id) redirect(invoiceHref(target.id));
  if (target?.kind === "list") redirect(`/invoices${canonicalListSearch([["q", target.q]])}`);
  notFound();
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: `Invoice ${shortInvoiceId(await invoiceId(params))}` };
}

export default async function InvoicePage({ params, searchParams }: Props) {
  // Who asks comes first: nothing is fetched with the console's key for someone not signed in.
  const user = await guardPage("invoices:read");
  const id = await invoiceId(params);
  if (!id.trim()) notFound();
  // Amounts show every digit the provider sent (lib/contract/format.ts): the currency's decimals are not needed here.
  // Before anything is sent (this route has no loading boundary above it, ARCHITECTURE.md §2): an unknown id
  // is an HTTP 404 with ./not-found.tsx, not a 200 that says so.
  const invoice = await loadInvoice(id);
  if (invoice instanceof Problem && invoice.status === 404) await openElsewhereOrNotFound(id);
  if (invoice instanceof Problem) return <InvoiceProblem problem={invoice} />;
  // The trail is kept under the id the provider itself gives the invoice, whichever form was asked for.
  const db = await getDatabase();
  const [audit, webhooks, policy, waiting] = await Promise.all([
    auditTrail(db, invoiceAuditTarget(invoice.invoice_id)),
    loadWebhooks(invoice.invoice_id),
    readTransitionPolicy(db),
    pendingApprovalFor(db, invoice.invoice_id),
  ]);
  const payment = invoice.payment;
  // Only those the policy lets ask for some change see anything about it; for the others it is noise on every invoice.
  const mayChange = can(user.role, "invoices:change_status") && mayAskAnything(policy, user.role) && invoice.status !== "archived";
  const offers = offersWhileWaiting(transitionOffers(policy, user.role, invoice.status, hasReceivedCrypto(invoice)), waiting);
  const maySimulate = can(user.role, "webhooks:simulate");

  return (
    <div className="flex flex-col gap-6">
      <BackToList />
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <p className="flex items-start gap-1 font-mono text-xs text-muted-foreground">
            <span className="min-w-0 break-all">{invoice.invoice_id}</span>
            <CopyButton value={invoice.invoice_id} label="Copy invoice id" />
          </p>
          <h1 className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-2xl font-semibold tracking-tight break-words">
            <bdi>{invoice.order_name || invoice.order_id || invoice.invoice_id}</bdi>
            <StatusBadge status={invoice.status} />
          </h1>
          <p className="mt-1 flex items-start gap-1 text-sm text-muted-foreground">
            <span className="min-w-0 [overflow-wrap:anywhere]">Order {invoice.order_id ?? MISSING}</span>
            {invoice.order_id && <CopyButton value={invoice.order_id} label="Copy order id" />}
          </p>
        </div>
        <div className="flex flex-col items-start gap-3 sm:items-end">
          <div className="tabular-nums sm:text-right">
            <p className="text-2xl font-semibold">{formatFiat(invoice.fiat_amount, invoice.fiat_currency)}</p>
            <p className="text-sm text-muted-foreground">
              {formatCrypto(invoice.crypto_amount)} {invoice.currency ?? ""}
              {payment?.rate != null && (
                <>
                  {" "}
                  · <span title={`${formatRateEur(payment.rate)} per ${invoice.currency}`}>{formatRateEurShort(payment.rate)}</span> per{" "}
                  {invoice.currency}
                </>
              )}
            </p>
            <PricedInNote invoice={invoice} />
            {/* What its crypto is worth now matters while it may still be paid, or once it was: not for a closed one. */}
            {(awaitsPayment(invoice.status) || invoice.status === "completed") && (
              <LazyWorthToday cryptoAmount={invoice.crypto_amount} currency={invoice.currency} fiatAmount={invoice.fiat_amount} />
            )}
          </div>
          {invoice.status === "archived" ? (
            <p className="text-xs text-muted-foreground">Archived records keep their status.</p>
          ) : (
            mayChange && <StatusChange invoice={invoice} offers={offers} query={await searchParams} />
          )}
          {maySimulate && invoice.status !== "archived" && (
            <SendTestWebhook invoiceId={invoice.invoice_id} status={invoice.status} hasCallback={!!invoice.callback_url} />
          )}
        </div>
      </header>

      {waiting && (
        <WaitingForApproval approval={waiting} mayDecide={can(user.role, "invoices:approve") && waiting.requested_by !== user.email} />
      )}

      <div className="grid gap-6 lg:grid-cols-2">
        <InvoiceSection title="Invoice">
          <DescriptionList>
            <DescriptionItem label="Status">
              <StatusBadge status={invoice.status} />
            </DescriptionItem>
            <DescriptionItem label="Fiat amount" numeric>
              {formatFiat(invoice.fiat_amount, invoice.fiat_currency)}
            </DescriptionItem>
            <DescriptionItem label="Crypto amount" numeric>
              {formatCrypto(invoice.crypto_amount)} {invoice.crypto_amount !== null ? invoice.currency : ""}
            </DescriptionItem>
            <DescriptionItem label="Allowed payment error">
              {invoice.allowed_error_percent != null ? `${invoice.allowed_error_percent} %` : MISSING}
            </DescriptionItem>
            <DescriptionItem label="Callback URL">
              {invoice.callback_url ? <span className="font-mono text-xs break-all">{invoice.callback_url}</span> : MISSING}
            </DescriptionItem>
            <DescriptionItem label="Created">
              <DateTime iso={invoice.created_at} />
            </DescriptionItem>
            <DescriptionItem label="Updated">
              <DateTime iso={invoice.updated_at} />
            </DescriptionItem>
            {/* The payment window matters only while it is open, or to say when it closed. */}
            {(invoice.status === "new" || invoice.status === "pending") && (
              <DescriptionItem label="Expires">
                <DateTime iso={invoice.expires_at} />
              </DescriptionItem>
            )}
            {invoice.status === "expired" && (
              <DescriptionItem label="Expired">
                <DateTime iso={invoice.expires_at} />
              </DescriptionItem>
            )}
          </DescriptionList>
        </InvoiceSection>
        <InvoiceSection title="Payment">
          <InvoicePayment invoice={invoice} />
        </InvoiceSection>
      </div>

      <InvoiceSection title="Timeline">
        <InvoiceTimeline entries={buildTimeline(invoice, audit, webhooks)} mayResend={can(user.role, "webhooks:manage")} />
      </InvoiceSection>
      <InvoiceSection title="Blockchain transactions">
        <InvoiceTransactions invoice={invoice} />
      </InvoiceSection>
      <InvoiceSection title="More from the provider">
        <ProviderFields fields={invoice.provider_fields} />
      </InvoiceSection>
    </div>
  );
}

/**
 * The invoice's webhooks for its timeline: the provider's delivery log when it offers the extension, else
 * what the console's inbox received for it. Neither is worth failing the page over.
 */
async function loadWebhooks(invoiceId: string): Promise<TimelineWebhooks | null> {
  try {
    const deliveries = await upstream().listWebhookDeliveries(invoiceId);
    if (deliveries) return { source: "deliveries", deliveries };
    const { entries } = await listInbox(await getDatabase(), { invoice_id: invoiceId, limit: 50 });
    return { source: "inbox", entries };
  } catch (error) {
    log.warn({ err: error, invoice_id: invoiceId }, "Invoice page: webhooks of an invoice not shown");
    return null;
  }
}

/** The question failed (the provider unreachable, busy, or refusing): its own words, and the way back. */
function InvoiceProblem({ problem }: { problem: Problem }) {
  const busy = busySeconds(problem);
  return (
    <ProblemState
      headingLevel={1}
      problem={problem}
      action={
        busy !== null ? (
          <RetryOnceWhenBusy seconds={busy} />
        ) : (
          <Button asChild>
            <Link href="/invoices">Back to all invoices</Link>
          </Button>
        )
      }
    />
  );
}
