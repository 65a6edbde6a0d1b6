import type { ComponentProps } from "react";
import { cn } from "@/lib/browser/cn";

/** A placeholder block while content loads; hidden from assistive technology (the container says it is busy). */
export function Skeleton({ className, ...props }: ComponentProps<"div">) {
  return <div aria-hidden className={cn("animate-pulse rounded-md bg-muted", className)} {...props} />;
}
