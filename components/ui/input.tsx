"use client";

import type { ComponentProps } from "react";
import { cn } from "@/lib/browser/cn";
import { useFieldControl } from "./field";

/** Shared look of every text-like control: one height, one border, one invalid style. */
export const controlClasses =
  "w-full min-w-0 rounded-md border border-input bg-card px-2.5 text-sm text-card-foreground shadow-xs transition-colors placeholder:text-muted-foreground disabled:cursor-not-allowed disabled:opacity-60 aria-invalid:border-danger-text aria-invalid:ring-1 aria-invalid:ring-danger-text";

/** A text input. Inside a <Field> it takes the field's id, description and error wiring. */
export function Input({ className, type = "text", ...props }: ComponentProps<"input">) {
  const field = useFieldControl(props);
  return <input type={type} className={cn(controlClasses, "h-control", className)} {...props} {...field} />;
}
