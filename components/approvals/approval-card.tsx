import Link from "next/link";
import { StatusBadge } from "@/components/invoices/status-badge";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { DateTime } from "@/components/ui/date-time";
import { DescriptionItem, DescriptionList } from "@/components/ui/description-list";
import { APPROVAL_STATE_LABELS, type Approval, type ApprovalState } from "@/lib/contract/approvals";
import { formatCount, formatCrypto, formatFiat } from "@/lib/contract/format";
import { invoiceHref } from "@/lib/contract/invoice-href";
import { DecisionForm } from "./decision-form";

const TONES: Record<ApprovalState, BadgeTone> = {
  pending: "warning",
  approved: "success",
  rejected: "danger",
  withdrawn: "neutral",
  expired: "neutral",
  invoice_changed: "caution",
  requester_changed: "caution",
};

/** Statuses that say money came in. */
const CLAIMS_PAYMENT = new Set(["completed", "paid_partial"]);

const text = (value: unknown) => (typeof value === "string" && value ? value : null);

/**
 * One request as an approver reads it: what is asked, of which invoice, by whom and why, the invoice then (as
 * asked) and now (as the provider says), when it expires, and — while it waits — the decision.
 */
export function ApprovalCard({
  approval,
  statusNow,
  own,
  mayDecide,
}: {
  approval: Approval;
  /** The invoice's status now, read from the provider for a waiting request; undefined when not read. */
  statusNow?: string | null;
  own: boolean;
  mayDecide: boolean;
}) {
  const s = approval.snapshot;
  // What approving would do is said only while it can be approved; a decided card says what happened.
  const waiting = approval.state === "pending";
  const order = text(s.order_id) ?? approval.invoice_id ?? "";
  const title = approval.kind === "bulk_cancel" ? `Cancel ${formatCount(Number(s.count ?? 0))} invoices` : `Order ${order}`;
  const received = text(s.received_sentence);
  return (
    <article
      aria-labelledby={`approval-${approval.id}`}
      className="flex flex-col gap-3 rounded-xl border border-border bg-card p-4 shadow-sm"
    >
      <header className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h2 id={`approval-${approval.id}`} className="text-base font-semibold [overflow-wrap:anywhere]">
            {approval.invoice_id ? (
              <Link href={invoiceHref(approval.invoice_id)} className="underline-offset-4 hover:underline">
                {title}
              </Link>
            ) : (
              title
            )}
          </h2>
          {text(s.order_name) && (
            <p className="text-sm text-muted-foreground [overflow-wrap:anywhere]">
              <bdi>{text(s.order_name)}</bdi>
            </p>
          )}
        </div>
        <Badge tone={TONES[approval.state]} dot>
          {APPROVAL_STATE_LABELS[approval.state]}
        </Badge>
      </header>
      <p className="flex flex-wrap items-center gap-1.5 text-sm">
        {approval.kind === "bulk_cancel" ? "Every invoice of the job" : <StatusBadge status={approval.from_status} />}
        <span aria-hidden>→</span>
        <span className="sr-only">to</span>
        <StatusBadge status={approval.to_status} />
      </p>
      <DescriptionList>
        <DescriptionItem label="Asked by">
          {approval.requested_by} · <DateTime iso={approval.requested_at} />
        </DescriptionItem>
        <DescriptionItem label="Reason">“{approval.reason}”</DescriptionItem>
        <DescriptionItem label="Why approval">{approval.why}</DescriptionItem>
        {approval.kind === "status_change" && (
          <DescriptionItem label="Amount" numeric>
            {formatFiat(text(s.fiat_amount), text(s.fiat_currency) ?? "EUR")} · {formatCrypto(text(s.crypto_amount))}{" "}
            {text(s.currency) ?? ""}
          </DescriptionItem>
        )}
        {received ? (
          <DescriptionItem label="Received">{received}</DescriptionItem>
        ) : (
          // Said only by a snapshot that knows: nothing came in, which an approver of a payment must not miss.
          approval.kind === "status_change" &&
          s.received === false && (
            <DescriptionItem label="Received">
              Nothing
              {waiting && CLAIMS_PAYMENT.has(approval.to_status) && (
                <span className="ml-2 text-xs text-caution-text">Approving marks it paid all the same.</span>
              )}
            </DescriptionItem>
          )
        )}
        {text(s.shortfall_sentence) && (
          <DescriptionItem label="Still owed">
            {text(s.shortfall_sentence)}
            {waiting && <span className="ml-1 text-xs text-caution-text">Approving marks it paid in full all the same.</span>}
          </DescriptionItem>
        )}
        {statusNow !== undefined && approval.kind === "status_change" && (
          <DescriptionItem label="Status now">
            <StatusBadge status={statusNow} />
            {typeof statusNow === "string" && statusNow !== approval.from_status && (
              <span className="ml-2 text-xs text-caution-text">Changed since asked: it can only be closed, nothing sent.</span>
            )}
          </DescriptionItem>
        )}
        {approval.state === "pending" ? (
          <DescriptionItem label="Expires">
            <DateTime iso={approval.expires_at} />
          </DescriptionItem>
        ) : (
          <DescriptionItem label="Decided">
            {approval.decided_by ?? "—"}
            {approval.decided_at && (
              <>
                {" · "}
                <DateTime iso={approval.decided_at} />
              </>
            )}
            {approval.decision_reason && <> · “{approval.decision_reason}”</>}
          </DescriptionItem>
        )}
      </DescriptionList>
      {approval.state === "pending" && (own || mayDecide) && (
        <DecisionForm
          id={approval.id}
          own={own}
          mayDecide={mayDecide}
          label={title}
          invoiceChanged={approval.kind === "status_change" && typeof statusNow === "string" && statusNow !== approval.from_status}
        />
      )}
      {approval.state === "pending" && !own && !mayDecide && (
        <p className="text-sm text-muted-foreground">Finance or an admin decides this request.</p>
      )}
    </article>
  );
}
