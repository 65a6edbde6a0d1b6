import { ArrowDownRight, ArrowUpRight, Minus } from "lucide-react";
import { cn } from "@/lib/browser/cn";
import { formatPercentChange } from "@/lib/contract/format";
import type { RateChange as Change } from "@/lib/contract/rate-change";

const TONES = { up: "text-success-text", down: "text-danger-text", flat: "text-muted-foreground" } as const;
const WORDS = { up: "up", down: "down", flat: "unchanged" } as const;

/** A change as colour, an arrow and words: never the colour alone. */
export function RateChange({ change, className }: { change: Change; className?: string }) {
  const Icon = change.direction === "up" ? ArrowUpRight : change.direction === "down" ? ArrowDownRight : Minus;
  if (change.percent === null) return <span className={cn("text-muted-foreground", className)}>—</span>;
  return (
    <span className={cn("inline-flex items-center justify-end gap-1 tabular-nums", TONES[change.direction], className)}>
      <Icon aria-hidden className="size-3.5 shrink-0" />
      <span className="sr-only">{WORDS[change.direction]} </span>
      {formatPercentChange(change.percent)}
    </span>
  );
}
