import type { Metadata } from "next";
import Link from "next/link";
import { type RecentInvoice, WebhookConsole } from "@/components/webhooks/webhook-console";
import { INBOX_SHOWN } from "@/lib/browser/query/webhooks";
import { guardPage } from "@/lib/console/bff/page";
import { upstream } from "@/lib/console/upstream/client";
import { listInbox } from "@/lib/console/webhooks/inbox";
import {
  INBOX_VERDICTS,
  type InboxFilter,
  type InboxVerdict,
  type Invoice,
  invoiceListQuerySchema,
  isKnownStatus,
  STATUS_LABELS,
} from "@/lib/contract";
import { Problem } from "@/lib/contract/problem";
import { can } from "@/lib/contract/roles";
import { getDatabase } from "@/lib/platform/db";
import { env } from "@/lib/platform/env";

export const metadata: Metadata = { title: "Webhooks" };

const RECENT = invoiceListQuerySchema.parse({ page_size: "20" });

export default async function WebhooksPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await guardPage("webhooks:simulate");
  const e = env();
  const params = await searchParams;
  const asked = params.invoice;
  const inboxFilter = readInboxFilter(params);
  const [recent, inbox] = await Promise.all([
    upstream()
      .listInvoices(RECENT)
      .then((list) => list.items.map(toRecent))
      .catch((error: unknown) => (error instanceof Problem ? error : Promise.reject(error))),
    listInbox(await getDatabase(), { limit: INBOX_SHOWN, invoice_id: inboxFilter.invoiceId ?? undefined, verdict: inboxFilter.verdicts }),
  ]);

  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Webhooks</h1>
        <p className="mt-1 text-sm text-muted-foreground">
          Send an invoice&apos;s status webhook as a test and watch it arrive, with its signature checked.
        </p>
        {can(user.role, "webhooks:manage") && (
          <p className="mt-2 text-sm">
            <Link href="/webhooks/deliveries" className="font-medium underline underline-offset-2">
              Deliveries
            </Link>{" "}
            — every webhook sent, what each receiver answered, and{" "}
            <Link href="/webhooks/deliveries?state=failed" className="underline underline-offset-2">
              the failed ones
            </Link>
            , to resend.
          </p>
        )}
      </div>
      <WebhookConsole
        recent={recent instanceof Problem ? [] : recent}
        recentProblem={recent instanceof Problem ? { title: recent.title, detail: recent.detail } : null}
        initialInbox={inbox}
        inboxFilter={inboxFilter}
        apiBaseUrl={e.embeddedSandbox ? `${e.publicUrl}/sandbox/api/v1` : e.invoicingApiUrl}
        initialInvoiceId={typeof asked === "string" && asked.trim() ? asked.trim() : null}
        inboxUrl={`${e.publicUrl}/api/webhook-inbox`}
        verifying={!!e.inbox.secret}
      />
    </div>
  );
}

function toRecent(invoice: Invoice): RecentInvoice {
  const status = invoice.status && isKnownStatus(invoice.status) ? STATUS_LABELS[invoice.status] : (invoice.status ?? "—");
  return {
    invoice_id: invoice.invoice_id,
    label: [invoice.order_id, invoice.order_name, status].filter(Boolean).join(" · "),
    hasCallback: !!invoice.callback_url,
    status: invoice.status,
  };
}

/** The inbox's filter from the page's address; a verdict it does not know is left out (the form offers only these). */
function readInboxFilter(params: Record<string, string | string[] | undefined>): InboxFilter {
  const list = (value: string | string[] | undefined) => (Array.isArray(value) ? value : value ? value.split(",") : []);
  const verdicts = [...new Set(list(params.inbox_verdict))].filter((v): v is InboxVerdict =>
    (INBOX_VERDICTS as readonly string[]).includes(v),
  );
  const invoice = typeof params.inbox_invoice === "string" ? params.inbox_invoice.trim().slice(0, 500) : "";
  return { verdicts, invoiceId: invoice || null };
}
