import { cn } from "@/lib/browser/cn";

/** A determinate progress bar, 0–100, named by `label` for assistive technology. */
export function Progress({ value, label, className }: { value: number; label: string; className?: string }) {
  const percent = Math.max(0, Math.min(100, Math.round(value)));
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      className={cn("h-2 overflow-hidden rounded-full bg-muted", className)}
    >
      <div className="h-full rounded-full bg-primary transition-[width]" style={{ width: `${percent}%` }} />
    </div>
  );
}

/** A thin line along a region's top edge while it loads again, its content still readable beneath it. */
export function LoadingLine({ label }: { label: string }) {
  return <div role="progressbar" aria-label={label} className="absolute inset-x-0 top-0 h-0.5 animate-pulse bg-primary" />;
}
