"use client";

import type { ComponentProps } from "react";
import { cn } from "@/lib/browser/cn";
import { useFieldControl } from "./field";
import { controlClasses } from "./input";

/** A multi-line text input, wired like Input inside a <Field>. */
export function Textarea({ className, rows = 3, ...props }: ComponentProps<"textarea">) {
  const field = useFieldControl(props);
  return <textarea rows={rows} className={cn(controlClasses, "min-h-16 py-2", className)} {...props} {...field} />;
}
