import Link from "next/link";
import { Notice } from "@/components/ui/notice";
import type { Approval } from "@/lib/contract/approvals";
import { formatCount } from "@/lib/contract/format";
import { invoiceHref } from "@/lib/contract/invoice-href";
import { statusLabel } from "@/lib/contract/status";

const label = (status: string | null) => statusLabel(status, "—");

/** After a decision: what became of the request, read from its row, so the page says it with or without script. */
export function DecidedNotice({ approval }: { approval: Approval }) {
  const what =
    approval.kind === "bulk_cancel"
      ? `the cancel of ${formatCount(Number(approval.snapshot.count ?? 0))} invoices`
      : `order ${String(approval.snapshot.order_id ?? approval.invoice_id)}`;
  const link = approval.invoice_id && (
    <Link href={invoiceHref(approval.invoice_id)} className="font-medium underline underline-offset-4">
      Open the invoice
    </Link>
  );
  const by = approval.decided_by ? ` by ${approval.decided_by}` : "";
  const sentence: Record<Approval["state"], string> = {
    pending: `The request for ${what} is still waiting.`,
    approved:
      approval.kind === "bulk_cancel"
        ? `Approved${by}: ${what} has started.`
        : `Approved${by}: ${what} is now ${label(approval.to_status)}.`,
    rejected: `Rejected${by}: nothing was sent for ${what}.`,
    withdrawn: `Withdrawn${by}: nothing was sent for ${what}.`,
    expired: `The request for ${what} expired: nothing was sent.`,
    invoice_changed:
      // Still in the status it was asked from: what changed is the crypto it received.
      approval.outcome === approval.from_status
        ? `Closed without sending: ${what} has received crypto since the change was asked for. Ask again if it is still needed.`
        : `Closed without sending: ${what} is ${label(approval.outcome)} now; it was ${label(approval.from_status)} when the change was asked for. Ask again if it is still needed.`,
    requester_changed: `Closed without sending: ${approval.outcome ?? `${approval.requested_by} may no longer ask for it.`} Ask again yourself if it is still needed.`,
  };
  const tone = approval.state === "approved" ? "success" : approval.state.endsWith("_changed") ? "warning" : "neutral";
  return (
    <Notice tone={tone} role="status" data-testid="decided-notice">
      {sentence[approval.state]} {link}
    </Notice>
  );
}
