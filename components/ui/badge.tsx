import { cva, type VariantProps } from "class-variance-authority";
import type { ComponentProps } from "react";
import { cn } from "@/lib/browser/cn";

export const badgeVariants = cva(
  "inline-flex items-center gap-1.5 rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset",
  {
    variants: {
      tone: {
        neutral: "bg-neutral-muted text-neutral-text ring-neutral-border [--dot:var(--color-neutral-solid)]",
        info: "bg-info-muted text-info-text ring-info-border [--dot:var(--color-info-solid)]",
        success: "bg-success-muted text-success-text ring-success-border [--dot:var(--color-success-solid)]",
        warning: "bg-warning-muted text-warning-text ring-warning-border [--dot:var(--color-warning-solid)]",
        caution: "bg-caution-muted text-caution-text ring-caution-border [--dot:var(--color-caution-solid)]",
        danger: "bg-danger-muted text-danger-text ring-danger-border [--dot:var(--color-danger-solid)]",
        archive: "bg-archive-muted text-archive-text ring-archive-border [--dot:var(--color-archive-solid)]",
      },
    },
    defaultVariants: { tone: "neutral" },
  },
);

export type BadgeTone = NonNullable<VariantProps<typeof badgeVariants>["tone"]>;

/** A short label in a tone; `dot` adds a coloured dot so the tone is not carried by the text colour alone. */
export function Badge({
  className,
  tone,
  dot = false,
  children,
  ...props
}: ComponentProps<"span"> & VariantProps<typeof badgeVariants> & { dot?: boolean }) {
  return (
    <span className={cn(badgeVariants({ tone }), className)} {...props}>
      {dot && <span aria-hidden className="size-1.5 rounded-full bg-(--dot)" />}
      {children}
    </span>
  );
}
