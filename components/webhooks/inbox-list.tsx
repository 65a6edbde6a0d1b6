"use client";

import { Inbox } from "lucide-react";
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { DateTime } from "@/components/ui/date-time";
import { EmptyState } from "@/components/ui/empty-state";
import type { InboxEntry } from "@/lib/contract";
import { invoiceHref } from "@/lib/contract/invoice-href";
import { statusLabel } from "@/lib/contract/status";
import { VerdictBadge } from "./verdict-badge";

/**
 * A body as a person reads it: JSON pretty-printed, anything else as it came; and what an invoice webhook says at a
 * glance (simulated or not, the order, the status it went from and to). Strings only: the body is the sender's.
 */
export function prettyBody(body: string): {
  text: string;
  simulated: boolean | null;
  orderId: string | null;
  change: { from: string | null; to: string } | null;
} {
  try {
    const parsed = JSON.parse(body) as {
      data?: { simulated?: unknown; previous_status?: unknown; invoice?: { order_id?: unknown; status?: unknown } };
    };
    const data = parsed?.data;
    const text = (value: unknown) => (typeof value === "string" && value ? value : null);
    const simulated = typeof data?.simulated === "boolean" ? data.simulated : null;
    const to = text(data?.invoice?.status);
    return {
      text: JSON.stringify(parsed, null, 2),
      simulated,
      orderId: text(data?.invoice?.order_id),
      change: to ? { from: text(data?.previous_status), to } : null,
    };
  } catch {
    return { text: body, simulated: null, orderId: null, change: null };
  }
}

/** The inbox, newest first: verdict, what it was about, the body and the headers it came with. */
export function InboxList({ entries, emptyHint }: { entries: InboxEntry[]; emptyHint: string }) {
  if (entries.length === 0) {
    return <EmptyState icon={<Inbox />} title="No webhooks received yet" description={emptyHint} className="py-10" />;
  }
  return (
    <ol className="flex flex-col gap-3" aria-label="Webhooks received">
      {entries.map((entry) => (
        <InboxItem key={entry.id} entry={entry} />
      ))}
    </ol>
  );
}

function InboxItem({ entry }: { entry: InboxEntry }) {
  const { text, simulated, orderId, change } = prettyBody(entry.body);
  return (
    <li data-testid="inbox-entry" data-verdict={entry.verdict} className="min-w-0 rounded-md border border-border bg-card p-3 text-sm">
      <div className="flex flex-wrap items-center gap-2">
        <VerdictBadge verdict={entry.verdict} />
        {simulated !== null && <Badge tone={simulated ? "info" : "neutral"}>{simulated ? "Simulated" : "Real change"}</Badge>}
        <span className="font-medium break-all">{entry.event_type ?? "Unknown event"}</span>
        {change && (
          <span className="text-xs">
            {change.from ? `${statusLabel(change.from)} → ` : "to "}
            {statusLabel(change.to)}
          </span>
        )}
        {orderId && <span className="font-mono text-xs break-all text-muted-foreground">Order {orderId}</span>}
        <span className="ml-auto text-xs text-muted-foreground">
          <DateTime iso={entry.received_at} />
        </span>
      </div>
      <p className="mt-1 text-xs text-muted-foreground">{entry.reason}</p>
      <dl className="mt-2 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-0.5 text-xs">
        {entry.invoice_id && (
          <>
            <dt className="text-muted-foreground">Invoice</dt>
            <dd className="font-mono break-all">
              <Link href={invoiceHref(entry.invoice_id)} className="text-primary hover:underline">
                {entry.invoice_id}
              </Link>
            </dd>
          </>
        )}
        {entry.message_id && (
          <>
            <dt className="text-muted-foreground">webhook-id</dt>
            <dd className="font-mono break-all">{entry.message_id}</dd>
          </>
        )}
      </dl>
      <details className="group mt-2">
        <summary className="cursor-pointer text-xs font-medium text-primary select-none">
          Body{entry.truncated ? ` (first part of ${entry.body_bytes.toLocaleString("en")} bytes)` : ""} and headers
        </summary>
        <pre
          className="mt-2 max-h-80 overflow-auto rounded-md bg-muted p-3 font-mono text-xs leading-relaxed whitespace-pre focus-visible:outline-2 focus-visible:outline-ring"
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (WCAG 2.1.1)
          tabIndex={0}
          role="region"
          aria-label="Body, scrollable"
        >
          {text || "(empty body)"}
        </pre>
        <pre
          className="mt-2 max-h-48 overflow-auto rounded-md bg-muted p-3 font-mono text-xs leading-relaxed whitespace-pre focus-visible:outline-2 focus-visible:outline-ring"
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (WCAG 2.1.1)
          tabIndex={0}
          role="region"
          aria-label="Headers, scrollable"
        >
          {Object.entries(entry.headers)
            .map(([name, value]) => `${name}: ${value}`)
            .join("\n")}
        </pre>
      </details>
    </li>
  );
}
