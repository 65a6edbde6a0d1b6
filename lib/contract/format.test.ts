import { describe, expect, it } from "vitest";
import { formatIsoDay } from "./format-date";

describe("formatIsoDay", () => {
  it("writes an ISO day and a range of them in the console's one format", () => {
    expect(formatIsoDay("2026-01-05")).toBe("5 Jan 2026");
    expect(formatIsoDay("2026-01-05 – 2026-01-11")).toBe("5 Jan 2026 – 11 Jan 2026");
    expect(formatIsoDay("not a day")).toBe("not a day");
  });
});
