"use client";

import { createContext, type ReactNode, use } from "react";
import { DEFAULT_TIME_ZONE, type DisplayTimeZone } from "@/lib/contract/time-zone";

const TimeZoneContext = createContext<DisplayTimeZone>({ timeZone: DEFAULT_TIME_ZONE, businessTimeZone: DEFAULT_TIME_ZONE });

/**
 * The time zone for every client component, as the server decided it (lib/contract/time-zone.ts): the person's own
 * choice or the business zone. The browser keeps it as it is, so hydration draws exactly the server's text.
 */
export function TimeZoneProvider({ zone, children }: { zone: DisplayTimeZone; children: ReactNode }) {
  return <TimeZoneContext value={zone}>{children}</TimeZoneContext>;
}

/** The IANA zone times are shown in and days are counted in (never the runtime's own: see lib/contract/time-zone.ts). */
export function useTimeZone(): string {
  return use(TimeZoneContext).timeZone;
}

/** The zone decision as a whole: the zone in use and the business zone it may have replaced. */
export function useTimeZoneDecision(): DisplayTimeZone {
  return use(TimeZoneContext);
}
