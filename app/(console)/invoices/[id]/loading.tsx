export default function Loading() {
  return (
    <div className="flex flex-col gap-6" aria-busy="true" aria-label="Loading the invoice">
      <div className="h-4 w-24 animate-pulse rounded bg-zinc-200" />
      <div className="flex justify-between">
        <div className="h-10 w-80 animate-pulse rounded bg-zinc-200" />
        <div className="h-10 w-40 animate-pulse rounded bg-zinc-200" />
      </div>
      <div className="grid gap-6 lg:grid-cols-2">
        <div className="h-72 animate-pulse rounded-lg bg-white shadow-xs" />
        <div className="h-72 animate-pulse rounded-lg bg-white shadow-xs" />
      </div>
      <div className="h-40 animate-pulse rounded-lg bg-white shadow-xs" />
    </div>
  );
}
