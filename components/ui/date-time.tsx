"use client";

import { useSyncExternalStore } from "react";
import { formatDateTime, formatUtc } from "@/lib/format";

const subscribe = () => () => {};

/**
 * A timestamp in the viewer's time zone, with UTC on hover. The server cannot know the viewer's zone, so
 * the HTML carries UTC and the browser switches to local time once hydrated.
 */
export function DateTime({ iso }: { iso: string | null | undefined }) {
  const inBrowser = useSyncExternalStore(subscribe, () => true, () => false);
  if (!iso) return <span className="text-muted-foreground">—</span>;
  return (
    <time dateTime={iso} title={formatUtc(iso)}>
      {inBrowser ? formatDateTime(iso) : formatDateTime(iso, "UTC")}
    </time>
  );
}
