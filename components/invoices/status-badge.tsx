import { Badge, type BadgeTone } from "@/components/ui/badge";
import { isKnownStatus, STATUS_DESCRIPTIONS, STATUS_LABELS, type AnyInvoiceStatus } from "@/lib/invoicing";

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
export function StatusBadge({ status }: { status: string }) {
  const known = isKnownStatus(status);
  return (
    <Badge dot tone={known ? TONES[status] : "neutral"} title={known ? STATUS_DESCRIPTIONS[status] : undefined}>
      {known ? STATUS_LABELS[status] : status}
    </Badge>
  );
}
