import "server-only";
import type { InboxEntry, Invoice, WebhookDelivery } from "@/lib/contract";
import { INBOX_VERDICT_LABELS, isKnownStatus, STATUS_LABELS } from "@/lib/contract";

export type TimelineEntry = {
  at: string;
  title: string;
  detail?: string;
  actor?: string;
  tone: "neutral" | "good" | "bad";
  /** A webhook is an effect: at the same instant as a change, it is listed after it (above it, newest first). */
  effect?: boolean;
  /** The delivery's latest attempt carries its id, so the timeline offers to send it again there. */
  resend?: { webhookId: string; invoiceId: string | null };
};

export type AuditRow = { at: Date; actorEmail: string; action: string; detail: Record<string, unknown> };

/**
 * The invoice's webhooks: the provider's own delivery log when it offers one (the sandbox's extension),
 * otherwise what the console's inbox received for it.
 */
export type TimelineWebhooks = { source: "deliveries"; deliveries: WebhookDelivery[] } | { source: "inbox"; entries: InboxEntry[] };

/** The audit action of a test webhook asked for through the console (lib/console/webhooks/simulate.ts). */
const WEBHOOK_SIMULATION_ACTION = "webhook.simulate";
/** The audit action of an archived invoice recorded through the console (lib/console/invoices/archive.ts). */
const ARCHIVE_ACTION = "invoice.archive";
const ANSWER_SHOWN = 160;
/** The audit actions of a request for approval (lib/console/approvals/store.ts): approval.requested, …approved, … */
const APPROVAL_PREFIX = "approval.";

const label = (status: unknown) => (typeof status === "string" && isKnownStatus(status) ? STATUS_LABELS[status] : String(status ?? "—"));

/**
 * One invoice's history, newest first: its own dates from the provider merged with what people did to it
 * through the console (the audit log), including attempts that were refused or failed.
 */
export function buildTimeline(invoice: Invoice, audit: AuditRow[], webhooks: TimelineWebhooks | null = null): TimelineEntry[] {
  const entries: TimelineEntry[] = [];
  // A provider's dates may be missing (or unreadable, so null): such an event is left out, not invented.
  if (invoice.created_at) entries.push({ at: invoice.created_at, title: "Invoice created", tone: "neutral" });
  const paidAt = invoice.payment?.paid_at;
  if (paidAt) entries.push({ at: paidAt, title: "Payment seen on chain", tone: "good" });

  for (const row of audit) {
    const d = row.detail;
    const at = row.at.toISOString();
    if (row.action === WEBHOOK_SIMULATION_ACTION) {
      const answer = d.answer as { message?: unknown; detail?: unknown } | undefined;
      entries.push({
        at,
        actor: row.actorEmail,
        tone: d.outcome === "sent" ? "neutral" : "bad",
        title:
          d.outcome === "sent"
            ? `Test webhook requested (${label(d.status)})`
            : `Test webhook (${label(d.status)}) refused by the payment provider`,
        detail: typeof answer?.message === "string" ? answer.message : typeof answer?.detail === "string" ? answer.detail : undefined,
      });
      continue;
    }
    if (row.action === ARCHIVE_ACTION) {
      // Only a created record is filed under the invoice; a refused attempt is filed under its order.
      if (d.outcome === "created") entries.push({ at, actor: row.actorEmail, tone: "neutral", title: "Recorded as an archived invoice" });
      continue;
    }
    const reason = typeof d.reason === "string" && d.reason ? `“${d.reason}”` : undefined;
    if (row.action.startsWith(APPROVAL_PREFIX)) {
      entries.push(approvalEntry(row, reason));
      continue;
    }
    // A change sent on approval carries the asker's reason: it is theirs, approved by whoever sent it.
    const changedBy = typeof d.requested_by === "string" ? `${d.requested_by}, approved by ${row.actorEmail}` : row.actorEmail;
    switch (d.outcome) {
      case "changed":
        entries.push({
          // When the change was sent: the provider's webhooks about it come after that, however late it answered.
          at: typeof d.sent_at === "string" ? d.sent_at : at,
          actor: changedBy,
          tone: "neutral",
          title: `Status changed from ${label(d.from)} to ${label(d.to)}`,
          detail: reason,
        });
        break;
      case "unchanged":
        entries.push({
          at,
          actor: changedBy,
          tone: "neutral",
          title: `Status set to ${label(d.to)}, which it already had`,
          detail: reason,
        });
        break;
      case "failed":
        entries.push({
          at,
          actor: row.actorEmail,
          tone: "bad",
          title: `Change to ${label(d.to)} failed; nothing changed`,
          detail: `${d.upstream_status ? `The payment provider answered HTTP ${d.upstream_status}.` : "The payment provider could not be reached."}${reason ? ` Reason given: ${reason}` : ""}`,
        });
        break;
      case "unknown":
        entries.push({
          at,
          actor: row.actorEmail,
          tone: "bad",
          title: `Change to ${label(d.to)}: no answer from the payment provider`,
          detail: `It may or may not have been applied; the status shown above is the provider's.${reason ? ` Reason given: ${reason}` : ""}`,
        });
        break;
      case "busy":
        entries.push({
          at,
          actor: changedBy,
          tone: "bad",
          title: `Change to ${label(d.to)} not sent: another change of it was being sent`,
          detail: reason ? `Reason given: ${reason}` : undefined,
        });
        break;
      case "refused":
        entries.push({
          at,
          actor: row.actorEmail,
          tone: "bad",
          title: d.to ? `Change to ${label(d.to)} refused; nothing changed` : "Status change refused",
          detail: `${typeof d.policy === "string" ? d.policy : `The ${d.role ?? "person's"} role may not change statuses.`}${reason ? ` Reason given: ${reason}` : ""}`,
        });
        break;
    }
  }

  if (webhooks?.source === "deliveries") entries.push(...deliveryEntries(webhooks.deliveries));
  if (webhooks?.source === "inbox") entries.push(...inboxEntries(webhooks.entries));

  // The provider's last update, unless it is the creation itself or a change the console made.
  const updated = invoice.updated_at ? Date.parse(invoice.updated_at) : NaN;
  const explained = [
    invoice.created_at,
    paidAt,
    ...audit.filter((r) => r.detail.outcome === "changed" || r.detail.outcome === "created").map((r) => r.at.toISOString()),
  ]
    .filter((t): t is string => !!t)
    .some((t) => Math.abs(Date.parse(t) - updated) < 5_000);
  if (invoice.updated_at && !explained)
    entries.push({ at: invoice.updated_at, title: `Last updated (now ${label(invoice.status)})`, tone: "neutral" });

  // Newest first; at one instant, a cause below its effects.
  return entries.sort((a, b) => Date.parse(b.at) - Date.parse(a.at) || Number(b.effect ?? false) - Number(a.effect ?? false));
}

/** Every attempt of every delivery: when, where, what the receiver answered and how fast, or why nothing was. */
function deliveryEntries(deliveries: WebhookDelivery[]): TimelineEntry[] {
  return deliveries.flatMap((d) => {
    const what = `${d.simulated ? "Test webhook" : "Webhook"}${d.status ? ` (${label(d.status)})` : ""}`;
    const attempts = d.attempts.filter((a) => a.at);
    return attempts.map((a, i) => {
      const ok = a.response_status !== null && a.response_status >= 200 && a.response_status <= 299;
      // What a refusing receiver said helps; a 2xx's body is noise.
      const answer = !ok && a.response_body?.trim() ? ` · “${shorten(a.response_body.trim())}”` : "";
      const took = a.duration_ms !== null ? ` in ${Math.round(a.duration_ms)} ms` : "";
      return {
        at: a.at!,
        effect: true,
        tone: ok ? "good" : "bad",
        title: `${what} ${a.redelivery ? "resent " : a.attempt && a.attempt > 1 ? `attempt ${a.attempt} ` : ""}${ok ? "delivered" : "not delivered"}: ${a.response_status !== null ? `HTTP ${a.response_status}${took}` : (a.error ?? "no answer")}`,
        detail: `${d.url ?? ""}${answer}`,
        ...(i === attempts.length - 1 && d.webhook_id ? { resend: { webhookId: d.webhook_id, invoiceId: d.invoice_id } } : {}),
      } satisfies TimelineEntry;
    });
  });
}

/** What the console's own inbox received for this invoice, with the verdict on each signature. */
function inboxEntries(entries: InboxEntry[]): TimelineEntry[] {
  return entries.map((e) => ({
    at: e.received_at,
    effect: true,
    tone: e.verdict === "valid" ? "good" : e.verdict === "not_verified" || e.verdict === "replayed" ? "neutral" : "bad",
    title: `Webhook received in the console's inbox: ${INBOX_VERDICT_LABELS[e.verdict].toLowerCase()}`,
    detail: `${e.event_type ?? "Unknown event"}${e.message_id ? ` · ${e.message_id}` : ""}`,
  }));
}

function shorten(text: string): string {
  const line = text.replace(/\s+/g, " ");
  return line.length > ANSWER_SHOWN ? `${line.slice(0, ANSWER_SHOWN)}…` : line;
}

/** A step of a request for approval: asked (and why it needs a second person), then how it was decided. */
function approvalEntry(row: AuditRow, reason: string | undefined): TimelineEntry {
  const d = row.detail;
  const at = row.at.toISOString();
  const to = label(d.to);
  const decided = typeof d.decision_reason === "string" ? `“${d.decision_reason}”` : undefined;
  switch (row.action.slice(APPROVAL_PREFIX.length)) {
    case "requested":
      return {
        at,
        actor: row.actorEmail,
        tone: "neutral",
        title: `Approval asked to change from ${label(d.from)} to ${to}`,
        detail: [reason, typeof d.why === "string" ? d.why : null].filter(Boolean).join(" · "),
      };
    case "approved":
      return { at, actor: row.actorEmail, tone: "good", title: `Change to ${to} approved (asked by ${d.requested_by})`, detail: decided };
    case "rejected":
      return { at, actor: row.actorEmail, tone: "bad", title: `Change to ${to} rejected; nothing changed`, detail: decided };
    case "withdrawn":
      return {
        at,
        actor: row.actorEmail,
        tone: "neutral",
        title: `Request to change to ${to} withdrawn; nothing changed`,
        detail: decided,
      };
    case "expired":
      return { at, actor: row.actorEmail, tone: "neutral", title: `Request to change to ${to} expired unapproved; nothing changed` };
    case "requester_changed":
      return {
        at,
        actor: row.actorEmail,
        tone: "bad",
        title: `Request to change to ${to} closed: ${d.requested_by} may no longer ask for it`,
        detail: typeof d.why_closed === "string" ? `Nothing was sent. ${d.why_closed}` : "Nothing was sent.",
      };
    default:
      if (d.received_now !== undefined) {
        return {
          at,
          actor: row.actorEmail,
          tone: "bad",
          title: `Request to change to ${to} closed: the invoice received crypto since`,
          detail: "Nothing was sent; its approver had seen what it had received when asked.",
        };
      }
      return {
        at,
        actor: row.actorEmail,
        tone: "bad",
        title: `Request to change to ${to} closed: the invoice is ${label(d.status_now)} now`,
        detail: "Nothing was sent; it was asked for while the invoice had another status.",
      };
  }
}
