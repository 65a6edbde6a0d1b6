import { describe, expect, it } from "vitest";
import { describeUserAgent } from "./user-agent";

describe("describeUserAgent (bowser)", () => {
  it.each([
    [
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0",
      "Microsoft Edge 126",
      "Windows",
    ],
    [
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15",
      "Safari 17",
      "macOS",
    ],
    ["Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0", "Firefox 127", "Linux"],
    [
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0 Mobile/15E148 Safari/604.1",
      "Chrome 126",
      "iOS",
    ],
    [
      "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36",
      "Chrome 126",
      "Android",
    ],
    ["Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/126.0 Safari/537.36", "Chrome 126", "Linux"],
    ["Mozilla/5.0 (Windows NT 10.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36 OPR/111.0", "Opera 111", "Windows"],
  ])("%s", (ua, browser, system) => {
    expect(describeUserAgent(ua)).toEqual({ browser, system });
  });

  it("names neither when there is no header or one it cannot read", () => {
    expect(describeUserAgent("curl/8.5.0")).toEqual({ browser: "Unknown browser", system: "unknown system" });
    expect(describeUserAgent(null)).toEqual({ browser: "Unknown browser", system: "unknown system" });
    expect(describeUserAgent("")).toEqual({ browser: "Unknown browser", system: "unknown system" });
  });
});
