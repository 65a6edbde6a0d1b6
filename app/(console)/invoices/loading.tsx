export default function Loading() {
  return (
    <div className="flex flex-col gap-6" aria-busy="true" aria-label="Loading invoices">
      <div className="h-8 w-40 animate-pulse rounded bg-zinc-200" />
      <div className="h-12 animate-pulse rounded bg-zinc-100" />
      <div className="h-96 animate-pulse rounded-lg bg-white shadow-xs" />
    </div>
  );
}
