import { Skeleton } from "@/components/ui/skeleton";

export default function Loading() {
  return (
    <div className="flex flex-col gap-6" role="status" aria-busy="true" aria-label="Loading the invoice">
      <Skeleton className="h-4 w-24" />
      <div className="flex flex-wrap justify-between gap-4">
        <Skeleton className="h-10 w-full max-w-80" />
        <Skeleton className="h-10 w-40" />
      </div>
      <div className="grid gap-6 lg:grid-cols-2">
        <Skeleton className="h-72 rounded-lg border border-border bg-card" />
        <Skeleton className="h-72 rounded-lg border border-border bg-card" />
      </div>
      <Skeleton className="h-40 rounded-lg border border-border bg-card" />
    </div>
  );
}
