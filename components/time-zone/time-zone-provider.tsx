"use client";

import { createContext, use, useSyncExternalStore, type ReactNode } from "react";
import { browserTimeZone, DEFAULT_TIME_ZONE, type DisplayTimeZone } from "@/lib/time-zone";

const TimeZoneContext = createContext<string>(DEFAULT_TIME_ZONE);

const subscribe = () => () => {};

/**
 * The display time zone for every client component, as the server decided it (lib/time-zone.ts). While
 * React hydrates, it is exactly the zone the server drew the HTML in, so the text matches; afterwards, when
 * the server's zone is the browser's choice and the browser's zone differs (the first visit, before the
 * cookie was sent; a person who travelled), the browser's own, in one re-render.
 */
export function TimeZoneProvider({ zone, children }: { zone: DisplayTimeZone; children: ReactNode }) {
  const timeZone = useSyncExternalStore(
    subscribe,
    () => (zone.followsBrowser ? browserTimeZone() : zone.timeZone),
    () => zone.timeZone,
  );
  return <TimeZoneContext value={timeZone}>{children}</TimeZoneContext>;
}

/** The IANA zone to show times in (never the runtime's own: see lib/time-zone.ts). */
export function useTimeZone(): string {
  return use(TimeZoneContext);
}
