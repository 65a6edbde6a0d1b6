import { afterEach, describe, expect, it, vi } from "vitest";

/** CONSOLE_TIME_ZONE, the business time zone (lib/contract/time-zone.ts), is checked when the configuration is read. */
describe("CONSOLE_TIME_ZONE", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  const read = async (value: string | undefined) => {
    vi.resetModules();
    vi.stubEnv("CONSOLE_TIME_ZONE", value);
    return (await import("./env")).env();
  };

  it("is UTC unless set, and canonicalised when set", async () => {
    expect((await read(undefined)).timeZone).toBe("UTC");
    expect((await read("europe/berlin")).timeZone).toBe("Europe/Berlin");
    expect((await read("America/New_York")).timeZone).toBe("America/New_York");
  });

  it("stops the start with a message naming the variable when the name is no zone", async () => {
    await expect(read("Europe/Atlantis")).rejects.toThrow(/CONSOLE_TIME_ZONE: "Europe\/Atlantis" is not an IANA time zone name/);
    await expect(read("+01:00")).rejects.toThrow(/CONSOLE_TIME_ZONE/);
  });
});
