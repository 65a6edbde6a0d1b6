import { Skeleton } from "@/components/ui/skeleton";
import { TableCell } from "@/components/ui/table";

/** Placeholder rows while the first page loads, as tall as rows of text; the table is aria-busy meanwhile. */
export function SkeletonRows({ rows, columns }: { rows: number; columns: number }) {
  return Array.from({ length: rows }, (_, r) => (
    <tr key={r} aria-hidden data-skeleton="">
      {Array.from({ length: columns }, (_, c) => (
        <TableCell key={c}>
          <Skeleton className="my-0.5 h-4 min-w-12" />
        </TableCell>
      ))}
    </tr>
  ));
}
