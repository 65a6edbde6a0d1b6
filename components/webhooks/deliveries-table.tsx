import { InvoiceLink } from "@/components/invoices/invoice-link";
import { DateTime } from "@/components/ui/date-time";
import { Table, TableBody, TableCard, TableCell, TableHead, TableHeader } from "@/components/ui/table";
import { cn } from "@/lib/browser/cn";
import type { WebhookDelivery } from "@/lib/contract";
import { DeliveryStateBadge } from "./delivery-state-badge";
import { ResendForm } from "./resend-form";

type Attempt = WebhookDelivery["attempts"][number];

/** What an attempt came to, in a few words: the receiver's status, or why there was no answer. */
export function attemptAnswer(attempt: Attempt | undefined): string {
  if (!attempt) return "Not tried yet";
  if (attempt.response_status !== null) return `HTTP ${attempt.response_status}`;
  return attempt.error ?? "No answer";
}

// On a phone the invoice, event, times, last answer and next retry give way, showing under the state instead (as
// the users table does), and each row stacks: its attempts and Resend open below at the card's full width.
const COLUMNS = [
  { label: "State" },
  { label: "Invoice", className: "hidden md:table-cell" },
  { label: "Event", className: "hidden md:table-cell" },
  { label: "Created", className: "hidden md:table-cell" },
  { label: "Last answer", className: "hidden md:table-cell" },
  { label: "Next retry", className: "hidden md:table-cell" },
  { label: "Attempts" },
];

/**
 * The deliveries log as a table, drawn on the server: each delivery's state, invoice (linked), event, last answer
 * and next retry; its attempts open below it (a plain <details>, no script), with Resend beside them (a failed
 * one's Resend in view).
 */
export function DeliveriesTable({
  deliveries,
  mayResend,
  orderIds = new Map(),
}: {
  deliveries: WebhookDelivery[];
  mayResend: boolean;
  /** The invoices' order ids the console's index knows: a row names its invoice by it, as people do. */
  orderIds?: ReadonlyMap<string, string>;
}) {
  const cell = (i: number, more?: string) => cn(COLUMNS[i].className, more);
  return (
    <TableCard>
      <div className="relative overflow-x-auto">
        <Table caption="Webhook deliveries, newest first">
          <TableHeader className="max-md:hidden">
            <tr>
              {COLUMNS.map(({ label, className }) => (
                <TableHead key={label} className={className}>
                  {label}
                </TableHead>
              ))}
            </tr>
          </TableHeader>
          <TableBody>
            {deliveries.map((d, i) => (
              <tr key={d.webhook_id ?? i} className="align-top max-md:flex max-md:flex-col" data-webhook-id={d.webhook_id ?? ""}>
                <TableCell wrap className={cell(0, "max-md:pb-1")}>
                  <DeliveryStateBadge state={d.state} />
                  <div className="mt-1.5 flex flex-col gap-0.5 text-xs md:hidden">
                    <InvoiceLink invoiceId={d.invoice_id} orderId={orderIds.get(d.invoice_id ?? "")} className="block truncate" />
                    <EventText delivery={d} />
                    <span className="text-muted-foreground tabular-nums">
                      <DateTime iso={d.created_at} /> · {attemptAnswer(d.attempts.at(-1))}
                    </span>
                    {d.next_attempt_at && (
                      <span className="text-muted-foreground tabular-nums">
                        Next retry <DateTime iso={d.next_attempt_at} />
                      </span>
                    )}
                  </div>
                </TableCell>
                <TableCell className={cell(1, "font-mono text-xs")}>
                  <InvoiceLink invoiceId={d.invoice_id} orderId={orderIds.get(d.invoice_id ?? "")} short />
                </TableCell>
                <TableCell className={cell(2)}>
                  <EventText delivery={d} />
                </TableCell>
                <TableCell className={cell(3, "tabular-nums")}>
                  <DateTime iso={d.created_at} />
                </TableCell>
                <TableCell wrap className={cell(4, "min-w-32")}>
                  {attemptAnswer(d.attempts.at(-1))}
                </TableCell>
                <TableCell className={cell(5, "tabular-nums")}>
                  <DateTime iso={d.next_attempt_at} />
                </TableCell>
                <TableCell wrap className={cell(6, "max-md:pt-0 max-md:pl-4 md:min-w-64")}>
                  <details>
                    <summary className="cursor-pointer whitespace-nowrap tabular-nums">
                      {d.attempts.length} {d.attempts.length === 1 ? "attempt" : "attempts"}
                    </summary>
                    <AttemptList attempts={d.attempts} url={d.url} webhookId={d.webhook_id} />
                    {mayResend && d.webhook_id && d.state !== "failed" && (
                      <div className="mt-2">
                        <ResendForm webhookId={d.webhook_id} invoiceId={d.invoice_id} />
                      </div>
                    )}
                  </details>
                  {/* A failed delivery's next step is in view, not behind its attempts. */}
                  {mayResend && d.webhook_id && d.state === "failed" && (
                    <div className="mt-2">
                      <ResendForm webhookId={d.webhook_id} invoiceId={d.invoice_id} />
                    </div>
                  )}
                </TableCell>
              </tr>
            ))}
          </TableBody>
        </Table>
      </div>
    </TableCard>
  );
}

/** The event, and the status it announced ("to completed", "(test)" for a simulated one). */
function EventText({ delivery: d }: { delivery: WebhookDelivery }) {
  return (
    <span>
      {d.type ?? "—"}
      {d.status && (
        <span className="block text-xs text-muted-foreground">
          to {d.status}
          {d.simulated ? " (test)" : ""}
        </span>
      )}
    </span>
  );
}

/** Every attempt with what the receiver answered (the first 2 KB the provider kept) or why nothing was. */
export function AttemptList({ attempts, url, webhookId }: { attempts: Attempt[]; url: string | null; webhookId: string | null }) {
  return (
    <div className="mt-2 flex flex-col gap-2">
      <p className="text-xs text-muted-foreground">
        <span className="font-mono">{webhookId ?? "—"}</span> to <span className="break-all font-mono">{url ?? "—"}</span>
      </p>
      {attempts.length === 0 && <p className="text-xs text-muted-foreground">No attempt yet.</p>}
      <ol className="flex flex-col gap-2">
        {attempts.map((a, i) => (
          <li key={`${a.attempt}-${i}`} className="rounded-md border border-border p-2">
            <p className="text-xs">
              <span className="font-medium">
                {a.redelivery ? "Resent" : `Attempt ${a.attempt ?? i + 1}`}: {attemptAnswer(a)}
              </span>{" "}
              · <DateTime iso={a.at} />
              {a.duration_ms !== null && <> · {a.duration_ms} ms</>}
            </p>
            {a.error && a.response_status !== null && <p className="text-xs text-muted-foreground">{a.error}</p>}
            {a.response_body && (
              <pre className="mt-1 max-h-40 overflow-auto whitespace-pre-wrap break-all rounded bg-muted p-2 font-mono text-xs">
                {a.response_body}
              </pre>
            )}
          </li>
        ))}
      </ol>
    </div>
  );
}
