import { describe, expect, it, vi } from "vitest";
import { useConsoleServer } from "./use-console-server";

/**
 * X-Request-Id behind a trusted proxy (TRUSTED_PROXIES=1): the load balancer's id is kept — in the
 * answer's header, its problem body and its log line — unless it is not a plain token, then one is made.
 * (Without a trusted proxy a client's own is never believed: operations.test.ts.)
 */
const server = useConsoleServer({ LOG_FORMAT: "json", TRUSTED_PROXIES: "1" });

const requestLines = () =>
  server()
    .output()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.msg === "request");

describe("X-Request-Id from a trusted proxy", () => {
  it("is kept in the header, the problem and the log line", async () => {
    const id = "lb-7f3a9c1e-0001";
    const answer = await fetch(`${server().url}/api/invoices/inv_8Hq2x`, { headers: { "x-request-id": id } });
    expect(answer.status).toBe(401);
    expect(answer.headers.get("x-request-id")).toBe(id);
    expect(await answer.json()).toMatchObject({ code: "unauthenticated", request_id: id });
    await vi.waitFor(() => expect(requestLines().find((line) => line.request_id === id)).toMatchObject({ status: 401 }));
  });

  it("is replaced by a made one when it is not a plain token of at most 128 characters", async () => {
    for (const given of ["has spaces in it", "x".repeat(129), 'quote"d']) {
      const answer = await fetch(`${server().url}/api/health`, { headers: { "x-request-id": given } });
      expect(answer.headers.get("x-request-id")).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    }
  });
});
