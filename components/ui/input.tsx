"use client";

import type { ComponentProps } from "react";
import { cn } from "@/lib/browser/cn";
import { useFieldControl } from "./field";

/** Shared look of every text-like control: one height, one border, one invalid style. */
export const controlClasses =
  "w-full min-w-0 rounded-md border border-input bg-card px-2.5 text-sm text-card-foreground shadow-xs transition-colors placeholder:text-muted-foreground disabled:cursor-not-allowed disabled:opacity-60 aria-invalid:border-danger-text aria-invalid:ring-1 aria-invalid:ring-danger-text";

const heights = { sm: "h-control-sm", md: "h-control", lg: "h-control-lg" };

/**
 * A text input. Inside a <Field> it takes the field's id, description and error wiring. `size` is its height
 * (not the native attribute); it fills its container, so a narrower one takes a max-w-* class.
 */
export function Input({
  className,
  type = "text",
  size = "md",
  ...props
}: Omit<ComponentProps<"input">, "size"> & { size?: keyof typeof heights }) {
  const field = useFieldControl(props);
  return <input type={type} className={cn(controlClasses, heights[size], className)} {...props} {...field} />;
}
