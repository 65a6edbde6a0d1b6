import { cva, type VariantProps } from "class-variance-authority";
import type { ComponentProps } from "react";
import { cn } from "@/lib/browser/cn";

export const noticeVariants = cva("rounded-md border px-3 py-2 text-sm", {
  variants: {
    tone: {
      neutral: "border-border bg-muted text-foreground",
      success: "border-success-border bg-success-muted text-success-text",
      warning: "border-warning-border bg-warning-muted text-warning-text",
      danger: "border-danger-border bg-danger-muted text-danger-text",
    },
  },
  defaultVariants: { tone: "neutral" },
});

/**
 * A boxed sentence inside a form or a dialog: an outcome, a warning, a failure. The caller gives the role
 * (`alert` for a failure that just happened, `status` for an outcome), since only it knows which it is.
 */
export function Notice({ className, tone, ...props }: ComponentProps<"div"> & VariantProps<typeof noticeVariants>) {
  return <div className={cn(noticeVariants({ tone }), className)} {...props} />;
}
