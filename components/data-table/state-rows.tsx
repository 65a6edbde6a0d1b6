import { Skeleton } from "@/components/ui/skeleton";

/** Placeholder rows while the first page loads; the table is aria-busy meanwhile. */
export function SkeletonRows({ rows, columns }: { rows: number; columns: number }) {
  return Array.from({ length: rows }, (_, r) => (
    <tr key={r} aria-hidden data-skeleton="">
      {Array.from({ length: columns }, (_, c) => (
        <td key={c} className="px-2.5 py-3 first:pl-4 last:pr-4">
          <Skeleton className="h-4 min-w-12" />
        </td>
      ))}
    </tr>
  ));
}
