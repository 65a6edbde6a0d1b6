"use client";

import { useTimeZone } from "@/components/time-zone/time-zone-provider";
import { formatDateTime, formatUtc } from "@/lib/contract/format-date";

/**
 * A timestamp in the person's display time zone (lib/contract/time-zone.ts), with UTC on hover. The server draws it in
 * the same zone the browser hydrates with, so the HTML already shows local time: no mismatch, no flash.
 */
export function DateTime({ iso }: { iso: string | null | undefined }) {
  const timeZone = useTimeZone();
  if (!iso) return <span className="text-muted-foreground">—</span>;
  return (
    <time dateTime={iso} title={formatUtc(iso)}>
      {formatDateTime(iso, timeZone)}
    </time>
  );
}
