import Bowser from "bowser";

/**
 * The browser and the operating system a User-Agent header names, as bowser reads them ("Chrome 126", "macOS"),
 * or "Unknown …" for either: the sessions list shows them so that a person recognises their own devices.
 */
export function describeUserAgent(userAgent: string | null | undefined): { browser: string; system: string } {
  const ua = userAgent?.trim();
  if (!ua) return { browser: "Unknown browser", system: "unknown system" };
  const { browser, os } = Bowser.parse(ua.slice(0, 1024));
  const major = browser.version?.split(".")[0];
  return {
    browser: browser.name ? [browser.name, major].filter(Boolean).join(" ") : "Unknown browser",
    system: os.name || "unknown system",
  };
}
