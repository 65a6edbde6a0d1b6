"use client";

import type { ComponentProps, ReactNode } from "react";
import { cn } from "@/lib/browser/cn";

type ChoiceCardProps = Omit<ComponentProps<"input">, "type"> & { label: ReactNode; description?: ReactNode };

/**
 * A radio button as a bordered card with a label and a sentence under it: for a few choices that each need
 * explaining (a new status). Group them in a <fieldset> with a <legend>.
 */
export function ChoiceCard({ label, description, className, ...props }: ChoiceCardProps) {
  return (
    <label
      className={cn(
        "flex items-start gap-2 rounded-md border border-border px-3 py-2 text-sm has-checked:border-primary has-checked:bg-accent has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-ring",
        // A choice that cannot be made looks it, and does not answer the pointer.
        props.disabled ? "cursor-not-allowed opacity-70" : "cursor-pointer hover:bg-accent/60",
        className,
      )}
    >
      <input type="radio" className="mt-0.5 accent-primary focus-visible:outline-none" {...props} />
      <span>
        <span className="font-medium">{label}</span>
        {description && <span className="block text-xs text-muted-foreground">{description}</span>}
      </span>
    </label>
  );
}
