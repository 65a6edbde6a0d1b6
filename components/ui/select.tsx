"use client";

import { ChevronDown } from "lucide-react";
import type { ComponentProps } from "react";
import { cn } from "@/lib/browser/cn";
import { useFieldControl } from "./field";
import { controlClasses } from "./input";

export type SelectOption = { value: string; label: string; disabled?: boolean };

// `size` is the control's height here, not the native attribute (rows shown as a list box).
type SelectProps = Omit<ComponentProps<"select">, "size"> & {
  options?: readonly SelectOption[];
  size?: "sm" | "md";
};

/**
 * A native <select> with the design's look: the browser's own keyboard, screen-reader and phone pickers
 * are better than any scripted listbox for a plain choice. Pass `options` or <option> children.
 */
export function Select({ className, options, size = "md", children, ...props }: SelectProps) {
  const field = useFieldControl(props);
  return (
    <span className={cn("relative inline-flex", className)}>
      <select className={cn(controlClasses, "appearance-none pr-8", size === "sm" ? "h-control-sm" : "h-control")} {...props} {...field}>
        {options?.map((o) => (
          <option key={o.value} value={o.value} disabled={o.disabled}>
            {o.label}
          </option>
        ))}
        {children}
      </select>
      <ChevronDown aria-hidden className="pointer-events-none absolute top-1/2 right-2.5 size-4 -translate-y-1/2 text-muted-foreground" />
    </span>
  );
}
