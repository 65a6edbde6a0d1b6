import type { Invoice } from "@/lib/invoicing";
import { isKnownStatus, STATUS_LABELS } from "@/lib/invoicing";

export type TimelineEntry = {
  at: string;
  title: string;
  detail?: string;
  actor?: string;
  tone: "neutral" | "good" | "bad";
};

export type AuditRow = { at: Date; actorEmail: string; action: string; detail: Record<string, unknown> };

const label = (status: unknown) => (typeof status === "string" && isKnownStatus(status) ? STATUS_LABELS[status] : String(status ?? "—"));

/**
 * One invoice's history, newest first: its own dates from the provider merged with what people did to it
 * through the console (the audit log), including attempts that were refused or failed.
 */
export function buildTimeline(invoice: Invoice, audit: AuditRow[]): TimelineEntry[] {
  const entries: TimelineEntry[] = [];
  // A provider's dates may be missing (or unreadable, so null): such an event is left out, not invented.
  if (invoice.created_at) entries.push({ at: invoice.created_at, title: "Invoice created", tone: "neutral" });
  const paidAt = invoice.payment?.paid_at;
  if (paidAt) entries.push({ at: paidAt, title: "Payment seen on chain", tone: "good" });

  for (const row of audit) {
    const d = row.detail;
    const at = row.at.toISOString();
    const reason = typeof d.reason === "string" && d.reason ? `“${d.reason}”` : undefined;
    switch (d.outcome) {
      case "changed":
        entries.push({ at, actor: row.actorEmail, tone: "neutral", title: `Status changed from ${label(d.from)} to ${label(d.to)}`, detail: reason });
        break;
      case "unchanged":
        entries.push({ at, actor: row.actorEmail, tone: "neutral", title: `Status set to ${label(d.to)}, which it already had`, detail: reason });
        break;
      case "failed":
        entries.push({
          at, actor: row.actorEmail, tone: "bad",
          title: `Change to ${label(d.to)} failed; nothing changed`,
          detail: `${d.upstream_status ? `The payment provider answered HTTP ${d.upstream_status}.` : "The payment provider could not be reached."}${reason ? ` Reason given: ${reason}` : ""}`,
        });
        break;
      case "unknown":
        entries.push({
          at, actor: row.actorEmail, tone: "bad",
          title: `Change to ${label(d.to)}: no answer from the payment provider`,
          detail: `It may or may not have been applied; the status shown above is the provider's.${reason ? ` Reason given: ${reason}` : ""}`,
        });
        break;
      case "refused":
        entries.push({
          at, actor: row.actorEmail, tone: "bad",
          title: d.to ? `Change to ${label(d.to)} refused; nothing changed` : "Status change refused",
          detail: `The ${d.role ?? "person's"} role may not change statuses.${reason ? ` Reason given: ${reason}` : ""}`,
        });
        break;
    }
  }

  // The provider's last update, unless it is the creation itself or a change the console made.
  const updated = invoice.updated_at ? Date.parse(invoice.updated_at) : NaN;
  const explained = [invoice.created_at, paidAt, ...audit.filter((r) => r.detail.outcome === "changed").map((r) => r.at.toISOString())]
    .filter((t): t is string => !!t)
    .some((t) => Math.abs(Date.parse(t) - updated) < 5_000);
  if (invoice.updated_at && !explained) entries.push({ at: invoice.updated_at, title: `Last updated (now ${label(invoice.status)})`, tone: "neutral" });

  return entries.sort((a, b) => Date.parse(b.at) - Date.parse(a.at));
}
