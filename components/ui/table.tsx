import { ArrowDown, ArrowUp, ChevronsUpDown } from "lucide-react";
import type { ComponentProps } from "react";
import { cn } from "@/lib/browser/cn";

/*
 * The parts every table is drawn from, on the server (the invoice list) or in the browser (components/data-table,
 * TanStack): one frame, one header, one cell, one sort control, so tables look and read alike.
 */

export type Sorted = "asc" | "desc" | false;

/** A card whose table scrolls sideways inside it on narrow screens (the page itself never does). */
export function TableCard({ className, ...props }: ComponentProps<"div">) {
  return (
    <div className={cn("overflow-hidden rounded-lg border border-border bg-card text-card-foreground shadow-xs", className)} {...props} />
  );
}

/** The table, named for assistive technology by its caption, which only screen readers show. */
export function Table({ caption, children, className, ...props }: ComponentProps<"table"> & { caption: string }) {
  return (
    <table className={cn("w-full text-sm", className)} {...props}>
      <caption className="sr-only">{caption}</caption>
      {children}
    </table>
  );
}

export function TableHeader({ className, ...props }: ComponentProps<"thead">) {
  return (
    <thead
      className={cn("border-b border-border bg-muted text-left text-xs tracking-wide text-muted-foreground uppercase", className)}
      {...props}
    />
  );
}

export function TableBody({ className, ...props }: ComponentProps<"tbody">) {
  return <tbody className={cn("divide-y divide-border", className)} {...props} />;
}

/**
 * A column's header cell. A sorted column says its order as aria-sort; the others say nothing, so a screen reader
 * names the one order in force.
 */
export function TableHead({ sorted, className, ...props }: ComponentProps<"th"> & { sorted?: Sorted }) {
  return (
    <th
      scope="col"
      aria-sort={sorted === "asc" ? "ascending" : sorted === "desc" ? "descending" : undefined}
      className={cn("px-2.5 py-2.5 font-medium whitespace-nowrap first:pl-4 last:pr-4", className)}
      {...props}
    />
  );
}

/** A body cell, on one line unless `wrap` (a name, an address). */
export function TableCell({ wrap = false, className, ...props }: ComponentProps<"td"> & { wrap?: boolean }) {
  return (
    <td className={cn("px-2.5 py-2.5 first:pl-4 last:pr-4", wrap ? "whitespace-normal" : "whitespace-nowrap", className)} {...props} />
  );
}

/** How a sortable header's control looks, a link on the server or a button in the browser. */
export function sortControlClass(sorted: Sorted): string {
  return cn("-mx-1 inline-flex items-center gap-1 rounded-sm px-1 uppercase hover:text-foreground", sorted && "text-foreground");
}

/** The arrow beside a sortable header's name: the order in force, or that it can be sorted. */
export function SortArrow({ sorted }: { sorted: Sorted }) {
  if (sorted === "asc") return <ArrowUp aria-hidden className="size-3.5" />;
  if (sorted === "desc") return <ArrowDown aria-hidden className="size-3.5" />;
  return <ChevronsUpDown aria-hidden className="size-3.5 opacity-70" />;
}
