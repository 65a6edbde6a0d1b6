import type { ComponentProps, ReactNode } from "react";
import { cn } from "@/lib/browser/cn";

/**
 * Label–value pairs (an invoice's fields). A <dl> may hold only <div>s of <dt>/<dd> (axe: definition-list),
 * so anything else — a sentence saying there is nothing — goes beside it, never inside.
 */
export function DescriptionList({ className, ...props }: ComponentProps<"dl">) {
  return <dl className={cn("divide-y divide-border", className)} {...props} />;
}

type ItemProps = {
  label: ReactNode;
  /** Figures: tabular, so digits line up from row to row. */
  numeric?: boolean;
  /** Classes for the label, e.g. `font-mono` for a provider's own key. */
  labelClassName?: string;
  children: ReactNode;
};

/** One pair; stacked on phones, label beside value from `sm` up. */
export function DescriptionItem({ label, numeric, labelClassName, children }: ItemProps) {
  return (
    <div className="grid gap-1 py-2 text-sm sm:grid-cols-3 sm:gap-4">
      <dt className={cn("text-muted-foreground", labelClassName)}>{label}</dt>
      <dd className={cn("min-w-0 text-foreground sm:col-span-2", numeric && "tabular-nums")}>{children}</dd>
    </div>
  );
}
