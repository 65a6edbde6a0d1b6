import { describe, expect, it } from "vitest";
// @ts-expect-error -- a plain ES module of the test runner, without type declarations
import { ensureChromium } from "./test-browser.mjs";

/** `npm test` brings its browser (scripts/test.mjs). */
describe("ensureChromium", () => {
  const OWN = "/root/.cache/ms-playwright/chromium-1/chrome-linux/chrome";
  const setup = (present: string[], { installs = true, env = {} as Record<string, string>, debianLike = true } = {}) => {
    const files = new Set(present);
    const notes: string[] = [];
    let installCalls = 0;
    const run = () =>
      ensureChromium({
        env,
        exists: (file: string) => files.has(file),
        ownChromium: async () => OWN,
        install: async () => {
          installCalls++;
          if (installs) files.add(OWN);
          return installs;
        },
        note: (message: string) => notes.push(message),
        debianLike,
      });
    return { run, notes, installs: () => installCalls };
  };

  it("uses a system Chromium, or Playwright's own already installed, without installing anything", async () => {
    for (const present of [["/usr/bin/chromium"], [OWN]]) {
      const t = setup(present);
      expect(await t.run()).toBe(true);
      expect(t.installs()).toBe(0);
      expect(t.notes).toEqual([]);
    }
    const given = setup(["/opt/chromium"], { env: { CHROMIUM_PATH: "/opt/chromium" } });
    expect(await given.run()).toBe(true);
  });

  it("installs Playwright's own when there is none, and says so", async () => {
    const t = setup([]);
    expect(await t.run()).toBe(true);
    expect(t.installs()).toBe(1);
    expect(t.notes.join("\n")).toContain("installing Playwright's own, `npx playwright install chromium`");
  });

  it("when the install fails, prints the one command that fixes it and reports the step failed", async () => {
    const debian = setup([], { installs: false });
    expect(await debian.run()).toBe(false);
    expect(debian.notes.at(-1)).toContain("`sudo apt-get install -y chromium`");
    const other = setup([], { installs: false, debianLike: false });
    expect(await other.run()).toBe(false);
    expect(other.notes.at(-1)).toContain("`npx playwright install --with-deps chromium`");
  });

  it("a CHROMIUM_PATH that does not exist is a failed step, not a silent fallback", async () => {
    const t = setup(["/usr/bin/chromium"], { env: { CHROMIUM_PATH: "/nowhere/chromium" } });
    expect(await t.run()).toBe(false);
    expect(t.installs()).toBe(0);
    expect(t.notes[0]).toContain("CHROMIUM_PATH is /nowhere/chromium, which does not exist");
  });
});
