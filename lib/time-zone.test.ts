import { describe, expect, it } from "vitest";
import { formatDateTime } from "./format";
import { canonicalTimeZone, DEFAULT_TIME_ZONE, displayTimeZone, todayIn, wallTimeOffset } from "./time-zone";

describe("displayTimeZone", () => {
  it("takes the zone the browser reported in its cookie, URL-encoded or not", () => {
    expect(displayTimeZone("Europe%2FBerlin")).toEqual({ timeZone: "Europe/Berlin", followsBrowser: true });
    expect(displayTimeZone("America/New_York").timeZone).toBe("America/New_York");
  });

  it("falls back to UTC without a cookie or with one that names no zone", () => {
    for (const value of [undefined, null, "", "Mars/Olympus", "%E0%A4%A", "x".repeat(200)]) {
      expect(displayTimeZone(value).timeZone).toBe(DEFAULT_TIME_ZONE);
    }
  });

  it("canonicalises a zone's spelling", () => {
    expect(canonicalTimeZone("europe/berlin")).toBe("Europe/Berlin");
  });
});

describe("wallTimeOffset", () => {
  it("gives a wall time's offset in the zone, summer time included", () => {
    expect(wallTimeOffset("2024-01-15", "14:30", "Europe/Berlin")).toBe("+01:00");
    expect(wallTimeOffset("2024-07-15", "14:30", "Europe/Berlin")).toBe("+02:00");
    expect(wallTimeOffset("2024-01-15", "14:30", "America/New_York")).toBe("-05:00");
    expect(wallTimeOffset("2024-07-15", "14:30", "America/New_York")).toBe("-04:00");
    expect(wallTimeOffset("2024-07-15", "14:30", "Asia/Kolkata")).toBe("+05:30");
    expect(wallTimeOffset("2024-07-15", "14:30", "UTC")).toBe("+00:00");
  });

  it("reads times around clock changes as a browser reads a local date-time", () => {
    // 02:30 happens twice on 27 Oct 2024 in Berlin: the earlier one (still summer time).
    expect(wallTimeOffset("2024-10-27", "02:30", "Europe/Berlin")).toBe("+02:00");
    expect(wallTimeOffset("2024-10-27", "03:30", "Europe/Berlin")).toBe("+01:00");
    // 02:30 does not exist on 31 Mar 2024 in Berlin: the offset before the change.
    expect(wallTimeOffset("2024-03-31", "02:30", "Europe/Berlin")).toBe("+01:00");
    expect(wallTimeOffset("2024-03-31", "03:30", "Europe/Berlin")).toBe("+02:00");
  });
});

describe("the display zone in formatting", () => {
  it("formats the same instant the same way wherever it runs, in the zone it is given", () => {
    const iso = "2026-01-05T09:00:00Z";
    expect(formatDateTime(iso, "Europe/Berlin")).toBe("5 Jan 2026, 10:00 CET");
    expect(formatDateTime(iso, "UTC")).toBe("5 Jan 2026, 09:00 UTC");
  });

  it("knows today's date in a zone", () => {
    const lateEvening = Date.parse("2026-03-18T23:30:00Z");
    expect(todayIn("UTC", lateEvening)).toBe("2026-03-18");
    expect(todayIn("Europe/Berlin", lateEvening)).toBe("2026-03-19");
    expect(todayIn("America/New_York", lateEvening)).toBe("2026-03-18");
  });
});
