import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatDateTime } from "./format-date";
import {
  addDays,
  canonicalTimeZone,
  dayOf,
  dayRange,
  daysBetween,
  displayTimeZone,
  knownTimeZones,
  readWallTime,
  startOfDay,
  todayIn,
  weekday,
} from "./time-zone";

const HOUR = 3_600_000;
const iso = (t: number) => new Date(t).toISOString();

/** The wall clock of `instant` in `timeZone` as typed into a form: ["2026-03-29", "03:15"], straight from Intl. */
function wall(instant: number, timeZone: string): [string, string] {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat("en-CA", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
    })
      .formatToParts(instant)
      .map((part) => [part.type, part.value]),
  );
  return [`${p.year}-${p.month}-${p.day}`, `${p.hour}:${p.minute}`];
}

const zones = knownTimeZones();
const zone = fc.constantFrom(...zones);
// 1973 to 2100: after the last offset with odd seconds (Africa/Monrovia kept −0:44:30 until May 1972, so a
// whole minute there was no whole minute of UTC), far enough ahead for every rule the runtime knows.
const instant = fc.integer({ min: Date.parse("1973-01-01T00:00:00Z"), max: Date.parse("2100-01-01T00:00:00Z") });

describe("displayTimeZone", () => {
  it("is the person's own zone when they chose one, else the business zone", () => {
    expect(displayTimeZone("Europe/Berlin", null)).toEqual({ timeZone: "Europe/Berlin", businessTimeZone: "Europe/Berlin" });
    expect(displayTimeZone("Europe/Berlin", "america/new_york")).toEqual({
      timeZone: "America/New_York",
      businessTimeZone: "Europe/Berlin",
    });
  });

  it("keeps the business zone when the person's zone is no zone (any more)", () => {
    for (const value of [undefined, null, "", "Mars/Olympus", "x".repeat(200)]) {
      expect(displayTimeZone("America/New_York", value).timeZone).toBe("America/New_York");
    }
  });

  it("canonicalises a zone's spelling and refuses what is not one", () => {
    expect(canonicalTimeZone("europe/berlin")).toBe("Europe/Berlin");
    expect(canonicalTimeZone("CET+1")).toBeNull();
  });
});

describe("calendar days", () => {
  it("adds days across months, years and leap days", () => {
    expect(addDays("2026-02-28", 1)).toBe("2026-03-01");
    expect(addDays("2028-02-28", 1)).toBe("2028-02-29");
    expect(addDays("2026-01-01", -1)).toBe("2025-12-31");
    expect(addDays("0050-01-01", -1)).toBe("0049-12-31");
    expect(addDays("9999-12-31", 1)).toBe("10000-01-01");
    expect(daysBetween("2026-03-01", "2026-03-31")).toBe(30);
    expect(weekday("2026-03-16")).toBe(0); // a Monday
    expect(weekday("2026-03-22")).toBe(6);
  });
});

describe("a day in a zone", () => {
  it("every instant lies within [start, end) of its own day in any zone", () => {
    fc.assert(
      fc.property(instant, zone, (t, z) => {
        const day = dayOf(t, z);
        const { start, end } = dayRange(day, z);
        expect(start).toBeLessThanOrEqual(t);
        expect(t).toBeLessThan(end);
        // The start is the day's first instant: the one before it belongs to an earlier day.
        expect(dayOf(start, z)).toBe(day);
        expect(dayOf(start - 1, z) < day).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it("days follow each other without gaps or overlaps, 23 to 25 hours long where the zone keeps them", () => {
    fc.assert(
      fc.property(instant, zone, (t, z) => {
        const day = dayOf(t, z);
        const { end } = dayRange(day, z);
        expect(startOfDay(addDays(day, 1), z)).toBe(end);
        expect(dayOf(end, z) > day).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it("a 00:30 in Berlin is on its own day, not the UTC day before", () => {
    const t = Date.parse("2026-11-20T23:30:00Z"); // 21 Nov, 00:30 CET
    expect(dayOf(t, "Europe/Berlin")).toBe("2026-11-21");
    expect(dayOf(t, "UTC")).toBe("2026-11-20");
    expect(iso(startOfDay("2026-11-21", "Europe/Berlin"))).toBe("2026-11-20T23:00:00.000Z");
    expect(iso(startOfDay("2026-11-21", "America/New_York"))).toBe("2026-11-21T05:00:00.000Z");
    // New York the other way: 23:30 on the 20th there is already the 21st in UTC.
    expect(dayOf(Date.parse("2026-11-21T04:30:00Z"), "America/New_York")).toBe("2026-11-20");
  });

  it.each([
    ["Europe/Berlin", "2026-03-29", 23, "2026-03-28T23:00:00.000Z"],
    ["Europe/Berlin", "2026-10-25", 25, "2026-10-24T22:00:00.000Z"],
    ["America/New_York", "2026-03-08", 23, "2026-03-08T05:00:00.000Z"],
    ["America/New_York", "2026-11-01", 25, "2026-11-01T04:00:00.000Z"],
    ["Europe/Berlin", "2026-06-01", 24, "2026-05-31T22:00:00.000Z"],
  ])("%s on %s lasts %i hours from %s", (z, day, hours, start) => {
    const range = dayRange(day, z);
    expect(iso(range.start)).toBe(start);
    expect((range.end - range.start) / HOUR).toBe(hours);
  });

  it("a day whose midnight the clocks skip starts when they land (Chile, 00:00 → 01:00)", () => {
    const start = startOfDay("2026-09-06", "America/Santiago");
    expect(wall(start, "America/Santiago")).toEqual(["2026-09-06", "01:00"]);
    expect(dayOf(start - 1, "America/Santiago")).toBe("2026-09-05");
  });

  it("knows today in a zone", () => {
    const lateEvening = Date.parse("2026-03-18T23:30:00Z");
    expect(todayIn("UTC", lateEvening)).toBe("2026-03-18");
    expect(todayIn("Europe/Berlin", lateEvening)).toBe("2026-03-19");
    expect(todayIn("America/New_York", lateEvening)).toBe("2026-03-18");
  });
});

describe("readWallTime", () => {
  it("gives a wall time's offset in the zone, summer time included", () => {
    expect(readWallTime("2024-01-15", "14:30", "Europe/Berlin")).toMatchObject({ kind: "exact", offset: "+01:00" });
    expect(readWallTime("2024-07-15", "14:30", "Europe/Berlin")).toMatchObject({ kind: "exact", offset: "+02:00" });
    expect(readWallTime("2024-01-15", "14:30", "America/New_York")).toMatchObject({ kind: "exact", offset: "-05:00" });
    expect(readWallTime("2024-07-15", "14:30", "America/New_York")).toMatchObject({ kind: "exact", offset: "-04:00" });
    expect(readWallTime("2024-07-15", "14:30", "Asia/Kolkata")).toMatchObject({ kind: "exact", offset: "+05:30" });
    expect(readWallTime("2024-07-15", "14:30", "UTC")).toMatchObject({
      kind: "exact",
      offset: "+00:00",
      instant: Date.parse("2024-07-15T14:30:00Z"),
    });
  });

  it("refuses a time the clocks skip, saying from when to when", () => {
    expect(readWallTime("2026-03-29", "02:30", "Europe/Berlin")).toEqual({ kind: "missing", from: "02:00", to: "03:00" });
    expect(readWallTime("2026-03-08", "02:00", "America/New_York")).toEqual({ kind: "missing", from: "02:00", to: "03:00" });
    expect(readWallTime("2026-03-29", "03:00", "Europe/Berlin")).toMatchObject({ kind: "exact", offset: "+02:00" });
    expect(readWallTime("2026-03-29", "01:59", "Europe/Berlin")).toMatchObject({ kind: "exact", offset: "+01:00" });
  });

  it("reads a time the clocks pass twice as the first of the two", () => {
    expect(readWallTime("2026-10-25", "02:30", "Europe/Berlin")).toEqual({
      kind: "repeated",
      instant: Date.parse("2026-10-25T00:30:00Z"),
      offset: "+02:00",
      laterOffset: "+01:00",
    });
    expect(readWallTime("2026-11-01", "01:30", "America/New_York")).toEqual({
      kind: "repeated",
      instant: Date.parse("2026-11-01T05:30:00Z"),
      offset: "-04:00",
      laterOffset: "-05:00",
    });
  });

  it("any wall time a zone shows reads back to an instant showing it, the first such", () => {
    fc.assert(
      fc.property(instant, zone, (t, z) => {
        const minute = Math.floor(t / 60_000) * 60_000;
        const [date, time] = wall(minute, z);
        const reading = readWallTime(date, time, z);
        expect(reading.kind).not.toBe("missing");
        if (reading.kind === "missing") return;
        expect(wall(reading.instant, z)).toEqual([date, time]);
        expect(reading.instant).toBeLessThanOrEqual(minute);
        if (reading.kind === "exact") expect(reading.instant).toBe(minute);
      }),
      { numRuns: 500 },
    );
  });
});

describe("the zone in formatting", () => {
  it("formats the same instant the same way wherever it runs, in the zone it is given", () => {
    const at = "2026-01-05T09:00:00Z";
    expect(formatDateTime(at, "Europe/Berlin")).toBe("5 Jan 2026, 10:00 CET");
    expect(formatDateTime(at, "UTC")).toBe("5 Jan 2026, 09:00 UTC");
  });
});
