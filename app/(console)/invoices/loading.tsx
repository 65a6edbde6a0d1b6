import { Skeleton } from "@/components/ui/skeleton";

export default function Loading() {
  return (
    <div className="flex flex-col gap-6" role="status" aria-busy="true" aria-label="Loading invoices">
      <Skeleton className="h-8 w-40" />
      <Skeleton className="h-12" />
      <Skeleton className="h-96 rounded-lg border border-border bg-card" />
    </div>
  );
}
