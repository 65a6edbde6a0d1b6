/*
 * Days and times in a time zone: the one place that decides which zone, and the one place that does the
 * arithmetic.
 *
 * One business time zone, CONSOLE_TIME_ZONE (lib/platform/env.ts, default UTC), decides what a day is everywhere: the
 * times shown, the table's date filters and presets, the overview's periods and buckets, export bounds and
 * file names, and how the archive form reads a date-time. A person may choose another zone for themselves
 * (their account's `time_zone`, set in the user menu); then that zone is theirs for all of the above, so what
 * they see and what they filter never disagree. The browser's own zone decides nothing.
 *
 * Server and browser must draw the same text, or React's hydration fails (#418). So the zone is not read
 * from the runtime on either side: the server decides it for each request (app/layout.tsx) and hands it to
 * the browser with the HTML (components/time-zone/time-zone-provider.tsx).
 *
 * The arithmetic asks the platform's Intl for a zone's wall clock at an instant; no offset table is kept here.
 */

export const DEFAULT_TIME_ZONE = "UTC";

/** The zone as the server decided it for one request, handed to the browser as it is. */
export type DisplayTimeZone = {
  timeZone: string;
  /** The business zone (CONSOLE_TIME_ZONE), which the person's own choice, if any, replaced. */
  businessTimeZone: string;
};

/** An IANA zone name the runtime knows, canonicalised ("europe/berlin" → "Europe/Berlin"); else null. */
export function canonicalTimeZone(value: string | null | undefined): string | null {
  // Names only: newer runtimes also take offsets ("+01:00"), which know no summer time and are no IANA zone.
  if (!value || value.length > 64 || !/^[A-Za-z]/.test(value)) return null;
  try {
    return new Intl.DateTimeFormat("en-GB", { timeZone: value }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** Server side: the zone a person's pages use, theirs if they chose one (and it is still a zone), else the business zone. */
export function displayTimeZone(businessTimeZone: string, personal: string | null | undefined): DisplayTimeZone {
  return { timeZone: canonicalTimeZone(personal) ?? businessTimeZone, businessTimeZone };
}

/** Every zone the runtime knows, for the person's select. */
export function knownTimeZones(): string[] {
  const zones = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  return zones.includes(DEFAULT_TIME_ZONE) ? zones : [DEFAULT_TIME_ZONE, ...zones];
}

// ---------------------------------------------------------------------------------------------------------
// Calendar days: "YYYY-MM-DD" strings, a date with no zone (what a person types into a date box).

const DAY_MS = 86_400_000;
const DAY_PATTERN = /^(\d{4,6})-(\d{2})-(\d{2})$/;

/** Days in order ("9999-12-31" before "10000-01-01"). */
function earlierDay(a: string, b: string): boolean {
  return a.length !== b.length ? a.length < b.length : a < b;
}

/** The UTC instant whose UTC wall clock reads these fields (years 0–99 too, which Date.UTC would move to 19xx). */
function fieldsAsUtc(y: number, mo: number, d: number, h = 0, mi = 0, s = 0): number {
  // Four hundred Gregorian years later the calendar is the same, day for day; fields may overflow (day 0, 32).
  const shift = y < 100 ? 400 : 0;
  const date = new Date(Date.UTC(y + shift, mo - 1, d, h, mi, s));
  if (shift) date.setUTCFullYear(date.getUTCFullYear() - shift);
  return date.getTime();
}

function dayFields(day: string): [number, number, number] {
  const m = DAY_PATTERN.exec(day);
  if (!m) throw new RangeError(`Not a day: ${JSON.stringify(day)} (expected YYYY-MM-DD)`);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

function utcDayString(t: number): string {
  const date = new Date(t);
  const y = date.getUTCFullYear();
  return `${String(y).padStart(4, "0")}-${String(date.getUTCMonth() + 1).padStart(2, "0")}-${String(date.getUTCDate()).padStart(2, "0")}`;
}

/** The calendar day a date input or a URL's `from=2026-11-21` parsed into (nuqs' parseAsIsoDate gives its UTC midnight). */
export function calendarDay(date: Date): string {
  return utcDayString(date.getTime());
}

/** Whether a YYYY-MM-DD is a day of the calendar: "2026-02-30" is written like one and is not (Date would roll it over). */
export function isCalendarDay(day: string): boolean {
  if (!DAY_PATTERN.test(day)) return false;
  const [y, mo, d] = dayFields(day);
  return utcDayString(fieldsAsUtc(y, mo, d)) === day;
}

/** `day` plus `n` calendar days ("2026-03-28" + 1 → "2026-03-29"), whatever any zone does that day. */
export function addDays(day: string, n: number): string {
  const [y, mo, d] = dayFields(day);
  return utcDayString(fieldsAsUtc(y, mo, d + n));
}

/** Calendar days from `a` to `b` ("2026-03-01" → "2026-03-31": 30). */
export function daysBetween(a: string, b: string): number {
  const [ay, amo, ad] = dayFields(a);
  const [by, bmo, bd] = dayFields(b);
  return Math.round((fieldsAsUtc(by, bmo, bd) - fieldsAsUtc(ay, amo, ad)) / DAY_MS);
}

/** Monday 0 … Sunday 6. */
export function weekday(day: string): number {
  const [y, mo, d] = dayFields(day);
  return (new Date(fieldsAsUtc(y, mo, d)).getUTCDay() + 6) % 7;
}

// ---------------------------------------------------------------------------------------------------------
// A zone's wall clock, from Intl.

type Wall = { y: number; mo: number; d: number; h: number; mi: number; s: number };

const wallFormats = new Map<string, Intl.DateTimeFormat>();

function wallClock(instant: number, timeZone: string): Wall {
  let format = wallFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      era: "short",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    wallFormats.set(timeZone, format);
  }
  const parts: Record<string, string> = {};
  for (const p of format.formatToParts(new Date(instant))) parts[p.type] = p.value;
  const year = Number(parts.year);
  return {
    y: parts.era === "BC" || parts.era === "B" ? 1 - year : year,
    mo: Number(parts.month),
    d: Number(parts.day),
    h: Number(parts.hour),
    mi: Number(parts.minute),
    s: Number(parts.second),
  };
}

/** Milliseconds east of UTC in `timeZone` at `instant` (summer time included). */
export function offsetMs(instant: number, timeZone: string): number {
  const w = wallClock(instant, timeZone);
  return fieldsAsUtc(w.y, w.mo, w.d, w.h, w.mi, w.s) - Math.floor(instant / 1000) * 1000;
}

/** The calendar day `instant` falls on in `timeZone`. */
export function dayOf(instant: number, timeZone: string): string {
  const w = wallClock(instant, timeZone);
  return utcDayString(fieldsAsUtc(w.y, w.mo, w.d));
}

/** Today's date in `timeZone`, "2026-03-18". */
export function todayIn(timeZone: string, now: number | Date = Date.now()): string {
  return dayOf(typeof now === "number" ? now : now.getTime(), timeZone);
}

/**
 * The first instant of `day` in `timeZone`: its midnight, or, where midnight does not exist (clocks going
 * forward at 00:00, as in Chile), the moment the clocks jump to. The day ends where the next one starts, so
 * a day is [startOfDay(day), startOfDay(day + 1)): 23, 24 or 25 hours long.
 */
export function startOfDay(day: string, timeZone: string): number {
  const [y, mo, d] = dayFields(day);
  const wall = fieldsAsUtc(y, mo, d);
  // Fast path: midnight read with the offsets in force a day either side (those of any change that day).
  const candidates = [wall - offsetMs(wall - DAY_MS, timeZone), wall - offsetMs(wall + DAY_MS, timeZone), wall - offsetMs(wall, timeZone)];
  const exact = candidates.filter((t) => dayOf(t, timeZone) === day && earlierDay(dayOf(t - 1, timeZone), day));
  if (exact.length) return Math.min(...exact);
  // Otherwise the first millisecond whose day is `day`: offsets lie within ±18 hours.
  let lo = wall - 18 * 3_600_000;
  let hi = wall + 18 * 3_600_000;
  while (hi - lo > 1) {
    const mid = lo + Math.floor((hi - lo) / 2);
    if (!earlierDay(dayOf(mid, timeZone), day)) hi = mid;
    else lo = mid;
  }
  return hi;
}

/** `day` in `timeZone` as instants: [start, end). */
export function dayRange(day: string, timeZone: string): { start: number; end: number } {
  return { start: startOfDay(day, timeZone), end: startOfDay(addDays(day, 1), timeZone) };
}

// ---------------------------------------------------------------------------------------------------------
// A wall-clock date and time a person typed, as an instant.

export type WallTimeReading =
  | { kind: "exact"; instant: number; offset: string }
  /** Clocks went back: the time happened twice; this is the first, `later` the second. */
  | { kind: "repeated"; instant: number; offset: string; laterOffset: string }
  /** Clocks went forward over it: no such time; `from` and `to` are the wall times of the jump ("02:00", "03:00"). */
  | { kind: "missing"; from: string; to: string };

function offsetText(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  const abs = Math.abs(minutes);
  return `${minutes >= 0 ? "+" : "-"}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
}

function hhmm(instant: number, timeZone: string): string {
  const w = wallClock(instant, timeZone);
  return `${String(w.h).padStart(2, "0")}:${String(w.mi).padStart(2, "0")}`;
}

/**
 * `date` ("2026-03-29") at `time` ("02:30") on the wall clocks of `timeZone`. A time that occurs twice
 * (clocks going back) reads as the first occurrence and says so; one the clocks skip is not read at all.
 */
export function readWallTime(date: string, time: string, timeZone: string): WallTimeReading {
  const [y, mo, d] = dayFields(date);
  const [h, mi] = time.split(":").map(Number);
  const wall = fieldsAsUtc(y, mo, d, h, mi);
  const offsets = [...new Set([offsetMs(wall - DAY_MS, timeZone), offsetMs(wall, timeZone), offsetMs(wall + DAY_MS, timeZone)])];
  // Each offset that gives this wall time back is one reading of it; the larger the offset, the earlier the instant.
  const readings = offsets.filter((o) => offsetMs(wall - o, timeZone) === o).sort((a, b) => b - a);
  if (readings.length === 0) {
    // In a gap: the jump happens between wall − (largest offset) and wall − (smallest offset).
    let lo = wall - Math.max(...offsets);
    let hi = wall - Math.min(...offsets);
    const before = offsetMs(lo, timeZone);
    while (hi - lo > 1000) {
      const mid = lo + Math.floor((hi - lo) / 2);
      if (offsetMs(mid, timeZone) === before) lo = mid;
      else hi = mid;
    }
    const jump = Math.ceil(hi / 1000) * 1000;
    return { kind: "missing", from: wallText(jump, before), to: hhmm(jump, timeZone) };
  }
  const first = readings[0];
  if (readings.length === 1) return { kind: "exact", instant: wall - first, offset: offsetText(first) };
  return { kind: "repeated", instant: wall - first, offset: offsetText(first), laterOffset: offsetText(readings[readings.length - 1]) };
}

/** The wall time just as a jump begins, read with the offset before it ("02:00"). */
function wallText(instant: number, offset: number): string {
  const t = new Date(instant + offset);
  return `${String(t.getUTCHours()).padStart(2, "0")}:${String(t.getUTCMinutes()).padStart(2, "0")}`;
}
