import { Badge, type BadgeTone } from "@/components/ui/badge";
import { DELIVERY_STATE_LABELS, DELIVERY_STATES, type DeliveryState } from "@/lib/contract";

const TONES: Record<DeliveryState, BadgeTone> = { pending: "neutral", retrying: "warning", delivered: "success", failed: "danger" };

/** A delivery's state as colour, dot and words; a state the provider named otherwise is shown as it came. */
export function DeliveryStateBadge({ state }: { state: string | null }) {
  const known = state && (DELIVERY_STATES as readonly string[]).includes(state) ? (state as DeliveryState) : null;
  return (
    <Badge tone={known ? TONES[known] : "neutral"} dot data-state={state ?? ""}>
      {known ? DELIVERY_STATE_LABELS[known] : (state ?? "—")}
    </Badge>
  );
}
