import { type ClassValue, clsx } from "clsx";

/**
 * Joins class names (strings, and conditions that are falsy when a class does not apply). It does not settle
 * conflicts: a component offers a prop (a size, a state) for what a caller may change, and a caller's
 * className only adds utilities the component does not set, since the stylesheet's order, not the markup's,
 * decides between two of one kind.
 */
export function cn(...inputs: ClassValue[]): string {
  return clsx(inputs);
}
