/*
 * Dates for people, apart from the amounts (lib/contract/format.ts) so a page that shows only times does not
 * load decimal arithmetic. A fixed locale keeps server and browser output identical (no hydration mismatch); so
 * does an explicit time zone: never the runtime's own, always the display zone that lib/contract/time-zone.ts
 * decides (components/ui/date-time.tsx, useTimeZone()).
 */

export const LOCALE = "en-GB";

const dateTimeOptions: Intl.DateTimeFormatOptions = {
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  // "5 Jan 2026, 10:00 CET": a time without its zone is ambiguous between the viewer, UTC and the provider.
  timeZoneName: "short",
};

/**
 * A calendar day in the table's format, "5 Jan 2026": a day as a person typed or picked it (a URL's
 * `from=2026-01-05`, held as its UTC midnight), not an instant; which instants it covers is the zone's affair
 * (lib/contract/time-zone.ts).
 */
export function formatCalendarDay(date: Date): string {
  return new Intl.DateTimeFormat(LOCALE, { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" }).format(date);
}

/**
 * A calendar day written as an ISO date ("2026-01-05", a URL's or a bucket's day) in the console's format,
 * "5 Jan 2026"; a range "2026-01-05 – 2026-01-11" as "5 Jan 2026 – 11 Jan 2026". Text that is not such a day is
 * returned as it is.
 */
export function formatIsoDay(day: string): string {
  return day
    .split(" – ")
    .map((part) => (/^\d{4}-\d{2}-\d{2}$/.test(part.trim()) ? formatCalendarDay(new Date(`${part.trim()}T00:00:00Z`)) : part))
    .join(" – ");
}

/** The day an instant falls on in `timeZone`, "5 Jan 2026". */
export function formatDayIn(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat(LOCALE, { day: "numeric", month: "short", year: "numeric", timeZone }).format(new Date(iso));
}

/** "5 Jan 2026, 11:00 CET" in `timeZone`: the display zone (useTimeZone()), never left to the runtime. */
export function formatDateTime(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat(LOCALE, { ...dateTimeOptions, timeZone }).format(new Date(iso));
}

export function formatUtc(iso: string): string {
  return new Intl.DateTimeFormat(LOCALE, { ...dateTimeOptions, second: "2-digit", timeZone: "UTC" }).format(new Date(iso));
}
