import { describe, expect, it } from "vitest";
// @ts-expect-error -- a plain ES module of the server layer, without type declarations
import { createHostCheck } from "./allowed-hosts.mjs";

/** The hosts the console answers to (DNS rebinding); through the real server: test/http/front-door.test.ts. */
describe("allowed hosts", () => {
  const check = createHostCheck({ publicUrl: "https://console.example.com/", allowedHosts: " Ops.Example.net ,, internal.lan. " });

  it.each([
    "console.example.com",
    "CONSOLE.example.com:8443",
    "console.example.com.",
    "ops.example.net:3000",
    "internal.lan",
    "localhost",
    "localhost:3000",
    "localhost:65535",
    "app.localhost:3000",
    "127.0.0.1:3000",
    "10.1.2.3",
    "[::1]:3000",
    "[2001:db8::1]",
  ])("answers %s", (host) => {
    expect(check.allows(host)).toBe(true);
  });

  it.each(["evil.example", "console.example.com.evil.example", "localhost.evil.example", "xn--nxasmq6b.example"])(
    "refuses %s, a host of somebody else's",
    (host) => {
      expect(check.allows(host)).toBe(false);
      expect(check.nameOf(host)).toBe(host);
    },
  );

  it.each([
    "",
    "::1",
    "[::1",
    "[not-an-ip]:80",
    "evil.example@127.0.0.1",
    "a b",
    "127.0.0.1:3000:1",
    "localhost:",
    "localhost:99999",
    "127.0.0.1:65536",
    "[::1]:",
  ])("refuses %j, not a host at all", (host) => {
    expect(check.allows(host)).toBe(false);
    expect(check.nameOf(host)).toBeNull();
  });

  it("names the host of a Host header without its port, as ALLOWED_HOSTS takes it", () => {
    expect(check.nameOf("Evil.Example.:8080")).toBe("evil.example");
    expect(check.nameOf("[::1]:3000")).toBe("[::1]");
  });

  it("says which entry of ALLOWED_HOSTS is not a host name", () => {
    expect(createHostCheck({ allowedHosts: "ok.example, https://console.example.com" })).toEqual({
      error: expect.stringContaining('"https://console.example.com" is not a host name'),
    });
    expect(createHostCheck({ allowedHosts: "console.example.com:443" })).toHaveProperty("error");
  });
});
