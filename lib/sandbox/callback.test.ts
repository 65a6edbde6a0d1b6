import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import ipaddr from "ipaddr.js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CallbackError, type CallbackPolicy, postCallback } from "./callback";

/** Which addresses a webhook may reach, against a real receiver on the loopback address. */

let receiver: Server;
let port: number;
let hits = 0;

beforeAll(async () => {
  receiver = createServer((_req, res) => {
    hits += 1;
    res.writeHead(202).end();
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  port = (receiver.address() as AddressInfo).port;
});
afterAll(() => new Promise((resolve) => receiver.close(resolve)));
beforeEach(() => {
  hits = 0;
});

const policy = (overrides: Partial<CallbackPolicy> = {}): CallbackPolicy => ({
  ownOrigins: [],
  allowlist: { hosts: [], cidrs: [] },
  ...overrides,
});
const post = (url: string, p: CallbackPolicy) =>
  postCallback(url, "{}", {}, { policy: p, timeoutMs: 2_000 }).then((answer) => answer.status);

async function refusal(url: string, p: CallbackPolicy): Promise<CallbackError> {
  const error = await post(url, p).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CallbackError);
  return error as CallbackError;
}

describe("postCallback", () => {
  it.each([
    ["a loopback IP", () => `http://127.0.0.1:${port}/hook`],
    ["a name that resolves to loopback", () => `http://localhost:${port}/hook`],
    ["an IPv4-mapped IPv6 loopback", () => `http://[::ffff:127.0.0.1]:${port}/hook`],
    ["the IPv6 loopback", () => `http://[::1]:${port}/hook`],
    ["a cloud metadata address (link-local)", () => "http://169.254.169.254/latest/meta-data/"],
    ["a private network address", () => "http://10.1.2.3/hook"],
  ])("refuses %s for good, and sends nothing", async (_, url) => {
    const error = await refusal(url(), policy());
    expect(error.permanent).toBe(true);
    expect(error.message).toContain("a private address; add it to SANDBOX_CALLBACK_ALLOWLIST");
    expect(hits).toBe(0);
  });

  it("reaches a private address the allowlist names, by IP, by range or by host", async () => {
    expect(await post(`http://127.0.0.1:${port}/hook`, policy({ allowlist: { hosts: ["127.0.0.1"], cidrs: [] } }))).toBe(202);
    expect(
      await post(`http://localhost:${port}/hook`, policy({ allowlist: { hosts: [], cidrs: [ipaddr.parseCIDR("127.0.0.0/8")] } })),
    ).toBe(202);
    expect(await post(`http://localhost:${port}/hook`, policy({ allowlist: { hosts: ["localhost"], cidrs: [] } }))).toBe(202);
    expect(hits).toBe(3);
  });

  it("always reaches the console's own origin", async () => {
    expect(await post(`http://127.0.0.1:${port}/api/webhook-inbox`, policy({ ownOrigins: [`http://127.0.0.1:${port}`] }))).toBe(202);
  });

  it("refuses what is not an http(s) URL for good", async () => {
    expect((await refusal("ftp://example.com/hook", policy())).permanent).toBe(true);
    expect((await refusal("not a url", policy())).permanent).toBe(true);
  });

  it.each([
    ["never answers", () => {}],
    // A whole 200 answer, one byte every 20 ms: never silent for long, complete only after a second or more.
    [
      "trickles its answer",
      (_req: unknown, res: { socket: { write: (s: string) => void } | null }) => {
        const bytes = [...`HTTP/1.1 200 OK\r\nx-slow: ${"z".repeat(40)}\r\ncontent-length: 0\r\n\r\n`];
        const timer = setInterval(() => (bytes.length ? res.socket?.write(bytes.shift()!) : clearInterval(timer)), 20);
      },
    ],
  ])("a receiver that %s gets one deadline for the whole attempt, and may be tried again", async (_, handler) => {
    const silent = createServer(handler as never);
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/hook`;
    try {
      const error = await postCallback(
        url,
        "{}",
        {},
        { policy: policy({ allowlist: { hosts: ["127.0.0.1"], cidrs: [] } }), timeoutMs: 200 },
      ).then(
        () => null,
        (e: unknown) => e as CallbackError,
      );
      expect(error).toMatchObject({ message: "no answer within 0.2 s", permanent: false });
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
