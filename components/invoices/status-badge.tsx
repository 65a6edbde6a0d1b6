import { Badge, type BadgeTone } from "@/components/ui/badge";
import { type AnyInvoiceStatus, isKnownStatus, STATUS_DESCRIPTIONS, STATUS_LABELS } from "@/lib/contract/status";

const TONES: Record<AnyInvoiceStatus, BadgeTone> = {
  new: "info",
  pending: "warning",
  completed: "success",
  expired: "neutral",
  cancelled: "danger",
  paid_partial: "caution",
  archived: "archive",
};

/** Status as colour and text; a status the console does not know yet is shown as the provider sent it. */
export function StatusBadge({ status }: { status: string | null }) {
  if (status === null || status.trim() === "")
    return (
      <span className="text-muted-foreground" title="The invoicing API gave no status">
        —
      </span>
    );
  const known = isKnownStatus(status);
  return (
    <Badge
      dot
      tone={known ? TONES[status] : "neutral"}
      data-status={known ? status : "unknown"}
      title={known ? STATUS_DESCRIPTIONS[status] : "A status the console does not know, shown as the invoicing API sent it."}
    >
      {known ? STATUS_LABELS[status] : status}
    </Badge>
  );
}
