"use client";

import type { ComponentProps } from "react";
import { cn } from "@/lib/browser/cn";
import { useFieldControl } from "./field";

/**
 * A native checkbox in the design's colours: it submits with its form (server actions) and needs no
 * script. Give it a visible label: wrap both in a <label>, or use it inside a <Field>.
 */
export function Checkbox({ className, ...props }: Omit<ComponentProps<"input">, "type">) {
  const field = useFieldControl(props);
  return (
    <input
      type="checkbox"
      className={cn("size-4 shrink-0 rounded-sm border-input accent-primary disabled:cursor-not-allowed disabled:opacity-60", className)}
      {...props}
      {...field}
    />
  );
}
