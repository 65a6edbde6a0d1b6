import { formatDateTime, formatUtc } from "@/lib/contract/format-date";

/** A timestamp in the person's display zone (drawn on the server, which decided it), with UTC on hover. */
export function Time({ iso, timeZone }: { iso: string | null | undefined; timeZone: string }) {
  if (!iso) return <span className="text-muted-foreground">—</span>;
  return (
    <time dateTime={iso} title={formatUtc(iso)}>
      {formatDateTime(iso, timeZone)}
    </time>
  );
}
