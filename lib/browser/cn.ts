import { type ClassValue, clsx } from "clsx";
import { extendTailwindMerge } from "tailwind-merge";

// The design tokens add spacing names (globals.css: --spacing-control…); tailwind-merge must know them to
// see that `h-control-sm` replaces `h-control` rather than sitting beside it.
const twMerge = extendTailwindMerge({
  extend: { theme: { spacing: ["control", "control-sm", "control-lg", "page"] } },
});

/**
 * Joins class names and lets the last Tailwind utility of a group win, so a caller's `className="h-10"`
 * replaces a component's own `h-9` instead of both landing in the markup and the stylesheet order deciding.
 */
export function cn(...inputs: ClassValue[]): string {
  return twMerge(clsx(inputs));
}
