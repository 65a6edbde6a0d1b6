/*
 * The time zone the console shows times in: the one place that decides it (issue 21).
 *
 * Server and browser must draw the same text, or React's hydration fails (#418). So the zone is not read
 * from the runtime on either side: the browser tells the server its own zone in a cookie (set by
 * components/time-zone/time-zone-script.tsx before anything else runs, on the sign-in page already), the
 * server reads it for every page (app/layout.tsx) and hands the decision to the browser with the HTML
 * (components/time-zone/time-zone-provider.tsx). Without a readable cookie (a first visit, cookies off)
 * it is UTC, and the browser switches to its own zone right after hydration.
 *
 * A later "business time zone" is decided here as well: then `followsBrowser` is false and the browser
 * keeps the zone the server chose.
 */

export const TIME_ZONE_COOKIE = "tz";
export const DEFAULT_TIME_ZONE = "UTC";

/** The display zone as the server decided it for one request, handed to the browser as it is. */
export type DisplayTimeZone = {
  timeZone: string;
  /** Whether the browser may replace it with its own zone after hydration (it is the browser's own choice). */
  followsBrowser: boolean;
};

/** An IANA zone name the runtime knows, canonicalised ("europe/berlin" → "Europe/Berlin"); else null. */
export function canonicalTimeZone(value: string | null | undefined): string | null {
  if (!value || value.length > 64) return null;
  try {
    return new Intl.DateTimeFormat("en-GB", { timeZone: value }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** Server side: the zone a request's pages are drawn in, from the cookie the browser set (or UTC). */
export function displayTimeZone(cookieValue: string | null | undefined): DisplayTimeZone {
  let zone: string | null = null;
  try {
    zone = canonicalTimeZone(cookieValue ? decodeURIComponent(cookieValue) : null);
  } catch {
    zone = null;
  }
  return { timeZone: zone ?? DEFAULT_TIME_ZONE, followsBrowser: true };
}

/** Browser side: the browser's own zone (UTC if it will not say). */
export function browserTimeZone(): string {
  return canonicalTimeZone(Intl.DateTimeFormat().resolvedOptions().timeZone) ?? DEFAULT_TIME_ZONE;
}

/**
 * The offset from UTC of a wall-clock date and time in `timeZone`, as "+01:00" (summer time included):
 * what "2024-01-15 14:30 in Europe/Berlin" means as an instant. As a browser reads a local date-time: a time
 * that occurs twice (clocks going back) is the earlier one, one that does not exist (clocks going forward)
 * takes the offset in force before the change.
 */
export function wallTimeOffset(date: string, time: string, timeZone: string): string {
  const [y, mo, d] = date.split("-").map(Number);
  const [h, mi] = time.split(":").map(Number);
  const wallAsUtc = Date.UTC(y, mo - 1, d, h, mi);
  // The offsets on either side of any clock change that day; those that give back this wall time are its readings.
  const candidates = [...new Set([offsetMinutes(wallAsUtc - 86_400_000, timeZone), offsetMinutes(wallAsUtc + 86_400_000, timeZone)])];
  const valid = candidates.filter((c) => offsetMinutes(wallAsUtc - c * 60_000, timeZone) === c);
  const minutes = valid.length ? Math.max(...valid) : Math.min(...candidates);
  const sign = minutes >= 0 ? "+" : "-";
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
}

const offsetFormats = new Map<string, Intl.DateTimeFormat>();

/** Minutes east of UTC in `timeZone` at `instant`. */
function offsetMinutes(instant: number, timeZone: string): number {
  let format = offsetFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", { timeZone, hourCycle: "h23", year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric" });
    offsetFormats.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(new Date(instant)).map((p) => [p.type, p.value]));
  const wall = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute));
  return Math.round((wall - Math.floor(instant / 60_000) * 60_000) / 60_000);
}

/** Today's date in `timeZone`, "2026-03-18" (the latest day a form may accept). */
export function todayIn(timeZone: string, now = Date.now()): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(now);
}
