/**
 * MINIMAL FALLBACK, not a user-agent parser: neither ua-parser-js nor bowser is installed, and the sessions list
 * only needs a browser family and a system a person recognises. Versions, devices and engines are left out on
 * purpose; replace this with a real parser if more is ever shown. Order matters: Edge and Opera also say
 * "Chrome", Chrome also says "Safari".
 */
const BROWSERS: [RegExp, string][] = [
  [/\bEdg(e|A|iOS)?\//, "Edge"],
  [/\bOPR\/|\bOpera\b/, "Opera"],
  [/\bSamsungBrowser\//, "Samsung Internet"],
  [/\bFirefox\/|\bFxiOS\//, "Firefox"],
  [/\bHeadlessChrome\//, "Chrome (headless)"],
  [/\bChromium\//, "Chromium"],
  [/\bChrome\/|\bCriOS\//, "Chrome"],
  [/\bVersion\/[\d.]+.*\bSafari\//, "Safari"],
  [/^curl\//, "curl"],
];

const SYSTEMS: [RegExp, string][] = [
  [/\biPhone|\biPad|\biPod/, "iOS"],
  [/\bAndroid\b/, "Android"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bWindows\b/, "Windows"],
  [/\bMacintosh\b|\bMac OS X\b/, "macOS"],
  [/\bLinux\b|\bX11\b/, "Linux"],
];

/** The browser family and the operating system a User-Agent header names, or "Unknown …" for either. */
export function describeUserAgent(userAgent: string | null | undefined): { browser: string; system: string } {
  const ua = userAgent ?? "";
  return {
    browser: BROWSERS.find(([pattern]) => pattern.test(ua))?.[1] ?? "Unknown browser",
    system: SYSTEMS.find(([pattern]) => pattern.test(ua))?.[1] ?? "unknown system",
  };
}
