import { ServerDateTime as DateTime } from "@/components/ui/server-date-time";
import { ResendForm } from "@/components/webhooks/resend-form";
import type { TimelineEntry } from "@/lib/console/invoices/timeline";

const DOT = { neutral: "bg-neutral-solid", good: "bg-success-solid", bad: "bg-danger-solid" } as const;

/** `mayResend`: the person may send a webhook again (webhooks:manage), offered on each delivery's latest attempt. */
export function InvoiceTimeline({ entries, mayResend = false }: { entries: TimelineEntry[]; mayResend?: boolean }) {
  return (
    <ol className="flex flex-col" aria-label="Invoice timeline">
      {entries.map((entry, i) => (
        <li key={`${entry.at}-${i}`} className="relative flex gap-3 pb-5 last:pb-0">
          {i < entries.length - 1 && <span aria-hidden className="absolute top-3 left-[5px] h-full w-px bg-border" />}
          <span aria-hidden className={`relative mt-1.5 size-2.5 shrink-0 rounded-full ring-4 ring-card ${DOT[entry.tone]}`} />
          <div className="text-sm">
            <p className="font-medium text-foreground">{entry.title}</p>
            {entry.detail && <p className="text-foreground/90">{entry.detail}</p>}
            <p className="text-xs text-muted-foreground">
              <DateTime iso={entry.at} />
              {entry.actor && <> · {entry.actor}</>}
            </p>
            {mayResend && entry.resend && (
              <div className="mt-1">
                <ResendForm webhookId={entry.resend.webhookId} invoiceId={entry.resend.invoiceId} />
              </div>
            )}
          </div>
        </li>
      ))}
    </ol>
  );
}
