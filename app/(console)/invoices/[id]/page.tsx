import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { BackToList } from "@/components/invoices/back-to-list";
import { InvoiceTimeline } from "@/components/invoices/invoice-timeline";
import { StatusBadge } from "@/components/invoices/status-badge";
import { StatusChange } from "@/components/invoices/status-change";
import { CopyButton } from "@/components/ui/copy-button";
import { DateTime } from "@/components/ui/date-time";
import { ProviderFields } from "@/components/invoices/provider-fields";
import { formatCount, formatCrypto, formatEur, formatFiat, MISSING, shortInvoiceId } from "@/lib/format";
import type { Invoice } from "@/lib/invoicing";
import { Problem } from "@/lib/problem";
import { auditTrail } from "@/lib/audit";
import { can, whoMay } from "@/lib/auth/roles";
import { guardPage } from "@/lib/bff/page";
import { getDatabase } from "@/lib/db";
import { invoiceAuditTarget } from "@/lib/invoices/change-status";
import { buildTimeline, type TimelineWebhooks } from "@/lib/invoices/timeline";
import { upstream } from "@/lib/upstream/client";
import { listInbox } from "@/lib/webhooks/inbox";
import { SendTestWebhook } from "@/components/webhooks/send-test-webhook";

type Props = { params: Promise<{ id: string }> };

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

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: `Invoice ${shortInvoiceId(await invoiceId(params))}` };
}

export default async function InvoicePage({ params }: Props) {
  // Who asks comes first: nothing is fetched with the console's key for someone not signed in.
  const user = await guardPage("invoices:read");
  const id = await invoiceId(params);
  if (!id.trim()) notFound();
  const [invoice, currencies] = await Promise.all([
    loadInvoice(id),
    upstream().listCurrencies().catch(() => ({ currencies: [] })),
  ]);
  if (invoice instanceof Problem) return invoice.status === 404 ? <NoSuchInvoice id={id} problem={invoice} /> : <ProblemPage problem={invoice} />;
  // The trail is kept under the id the provider itself gives the invoice, whichever form was asked for.
  const db = await getDatabase();
  const [audit, webhooks] = await Promise.all([auditTrail(db, invoiceAuditTarget(invoice.invoice_id)), loadWebhooks(invoice.invoice_id)]);
  const payment = invoice.payment;
  const decimals = currencies.currencies.find((c) => c.code === invoice.currency)?.decimals ?? 8;
  const mayChange = can(user.role, "invoices:change_status");
  const maySimulate = can(user.role, "webhooks:simulate");

  return (
    <div className="flex flex-col gap-6">
      <BackToList />
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <p className="font-mono text-xs text-zinc-500">
            {invoice.invoice_id} <CopyButton value={invoice.invoice_id} label="Copy invoice id" />
          </p>
          <h1 className="mt-1 flex items-center gap-3 text-2xl font-semibold tracking-tight">
            {invoice.order_name || invoice.order_id || invoice.invoice_id}
            <StatusBadge status={invoice.status} />
          </h1>
          <p className="mt-1 text-sm text-zinc-600">Order {invoice.order_id ?? MISSING}</p>
        </div>
        <div className="flex flex-col items-end gap-3">
          <div className="text-right tabular-nums">
            <p className="text-2xl font-semibold">{formatFiat(invoice.fiat_amount, invoice.fiat_currency)}</p>
            <p className="text-sm text-zinc-600">
              {formatCrypto(invoice.crypto_amount, decimals)} {invoice.currency ?? ""}
              {payment?.rate != null && <> · {formatEur(payment.rate)} per {invoice.currency}</>}
            </p>
          </div>
          {invoice.status === "archived" ? (
            <p className="text-xs text-zinc-500">Archived records keep their status.</p>
          ) : mayChange ? (
            <StatusChange invoice={invoice} received={payment?.amount_received ? `${formatCrypto(payment.amount_received, decimals)} ${invoice.currency}` : null} />
          ) : (
            <p className="max-w-64 text-right text-xs text-zinc-500">{whoMay("invoices:change_status")}</p>
          )}
          {maySimulate && invoice.status !== "archived" && <SendTestWebhook invoiceId={invoice.invoice_id} status={invoice.status} hasCallback={!!invoice.callback_url} />}
        </div>
      </header>

      <div className="grid gap-6 lg:grid-cols-2">
        <Section title="Invoice">
          <Field label="Status"><StatusBadge status={invoice.status} /></Field>
          <Field label="Fiat amount" numeric>{formatFiat(invoice.fiat_amount, invoice.fiat_currency)}</Field>
          <Field label="Crypto amount" numeric>{formatCrypto(invoice.crypto_amount, decimals)} {invoice.crypto_amount !== null ? invoice.currency : ""}</Field>
          <Field label="Allowed payment error">{invoice.allowed_error_percent != null ? `${invoice.allowed_error_percent} %` : "—"}</Field>
          <Field label="Callback URL">{invoice.callback_url ? <span className="font-mono text-xs break-all">{invoice.callback_url}</span> : "—"}</Field>
          <Field label="Created"><DateTime iso={invoice.created_at} /></Field>
          <Field label="Updated"><DateTime iso={invoice.updated_at} /></Field>
          <Field label="Expires"><DateTime iso={invoice.expires_at} /></Field>
        </Section>

        <Section title="Payment">
          {payment ? (
            <>
              <Field label="Network">{payment.network ?? "—"}</Field>
              <Field label="Address">
                {payment.address ? (
                  <span className="inline-flex items-center gap-1 font-mono text-xs break-all">
                    {payment.address} <CopyButton value={payment.address} label="Copy address" />
                  </span>
                ) : "—"}
              </Field>
              <Field label="Amount due" numeric>{payment.amount_due != null ? `${formatCrypto(payment.amount_due, decimals)} ${invoice.currency}` : "—"}</Field>
              <Field label="Amount received" numeric>{payment.amount_received != null ? `${formatCrypto(payment.amount_received, decimals)} ${invoice.currency}` : "—"}</Field>
              <Field label="Rate" numeric>{payment.rate != null ? `${formatEur(payment.rate)} per ${invoice.currency}` : "—"}</Field>
              <Field label="Paid"><DateTime iso={payment.paid_at} /></Field>
              <Field label="Confirmations" numeric>
                {confirmationsText(payment.confirmations, payment.confirmations_required)}
              </Field>
            </>
          ) : (
            <p className="text-sm text-zinc-600">No payment details: this invoice has no payment address (archived records have none).</p>
          )}
        </Section>
      </div>

      <Section title="Timeline" fields={false}>
        <InvoiceTimeline entries={buildTimeline(invoice, audit, webhooks)} />
      </Section>

      <Section title="Blockchain transactions" fields={false}>
        {payment?.transactions?.length ? (
          <ul className="divide-y divide-zinc-100">
            {payment.transactions.map((tx, i) => (
              <li key={`${i}-${tx.tx_hash}`} className="flex flex-wrap items-center justify-between gap-3 py-3 text-sm">
                <span className="inline-flex items-center gap-1 font-mono text-xs break-all">
                  {tx.explorer_url ? (
                    <a href={tx.explorer_url} target="_blank" rel="noreferrer" className="text-indigo-700 hover:underline">
                      {tx.tx_hash ?? "View in explorer"}
                    </a>
                  ) : (tx.tx_hash ?? MISSING)}
                  {tx.tx_hash && <CopyButton value={tx.tx_hash} label="Copy transaction hash" />}
                </span>
                <span className="tabular-nums text-zinc-700">
                  {formatCrypto(tx.amount, decimals)} {invoice.currency} · {tx.confirmations != null ? formatCount(tx.confirmations) : "—"} confirmations
                  {tx.block_height != null ? ` · block ${formatCount(tx.block_height)}` : ""} · <DateTime iso={tx.seen_at} />
                </span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-zinc-600">No transactions seen for this invoice.</p>
        )}
      </Section>

      <Section title="More from the provider" fields={false}>
        <ProviderFields fields={invoice.provider_fields} />
      </Section>
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
    console.warn(`Invoice page: webhooks of ${invoiceId} not shown:`, error instanceof Error ? error.message : error);
    return null;
  }
}

/** The provider has no invoice under this id: what was asked for, and the provider's own answer. */
function NoSuchInvoice({ id, problem }: { id: string; problem: Problem }) {
  return (
    <div role="alert" className="mx-auto flex max-w-md flex-col items-center gap-3 py-20 text-center">
      <h1 className="text-xl font-semibold">No invoice has this id</h1>
      <p className="font-mono text-xs break-all text-zinc-700">{id}</p>
      <p className="text-sm text-zinc-600">
        The invoicing API answered: {(problem.detail ?? problem.title).replace(/\.$/, "")}. Check the id for typos: paste it exactly as the provider gives it.
      </p>
      <Link href="/invoices" className="text-sm font-medium text-indigo-700 hover:underline">
        Back to all invoices
      </Link>
    </div>
  );
}

/** A failure the person can read: the problem's own words, and the way back. */
function ProblemPage({ problem }: { problem: Problem }) {
  return (
    <div role="alert" className="mx-auto flex max-w-md flex-col items-center gap-3 py-20 text-center">
      <h1 className="text-xl font-semibold">{problem.title}</h1>
      {problem.detail && <p className="text-sm text-zinc-600">{problem.detail}</p>}
      <Link href="/invoices" className="text-sm font-medium text-indigo-700 hover:underline">
        Back to all invoices
      </Link>
    </div>
  );
}

/** "3 of 6" while confirming; once enough, the count and that it is confirmed. */
function confirmationsText(count: number | null | undefined, required: number | null | undefined): string {
  if (count == null) return "—";
  if (required == null) return formatCount(count);
  return count >= required ? `${formatCount(count)} (confirmed, ${required} required)` : `${count} of ${required}`;
}

const sectionId = (title: string) => `section-${title.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`;

function Section({ title, children, fields = true }: { title: string; children: ReactNode; fields?: boolean }) {
  return (
    <section className="rounded-lg border border-zinc-200 bg-white p-5 shadow-xs" aria-labelledby={sectionId(title)}>
      <h2 id={sectionId(title)} className="mb-3 text-sm font-semibold text-zinc-900">{title}</h2>
      {fields ? <dl className="divide-y divide-zinc-100">{children}</dl> : children}
    </section>
  );
}

function Field({ label, numeric, children }: { label: string; numeric?: boolean; children: ReactNode }) {
  return (
    <div className="grid grid-cols-3 gap-4 py-2 text-sm">
      <dt className="text-zinc-600">{label}</dt>
      <dd className={`col-span-2 text-zinc-900 ${numeric ? "tabular-nums" : ""}`}>{children}</dd>
    </div>
  );
}
