import { Badge, type BadgeTone } from "@/components/ui/badge";
import { INBOX_VERDICT_LABELS, type InboxVerdict } from "@/lib/contract/inbox-verdicts";

const TONES: Record<InboxVerdict, BadgeTone> = {
  valid: "success",
  invalid: "danger",
  too_old: "warning",
  replayed: "caution",
  not_verified: "neutral",
};

/** The inbox's plain verdict, as colour, dot and words. */
export function VerdictBadge({ verdict }: { verdict: InboxVerdict }) {
  return (
    <Badge tone={TONES[verdict]} dot data-verdict={verdict}>
      {INBOX_VERDICT_LABELS[verdict]}
    </Badge>
  );
}
