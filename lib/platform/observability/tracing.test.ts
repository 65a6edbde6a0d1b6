import { AsyncLocalStorage } from "node:async_hooks";
import fs from "node:fs";
import { createServer } from "node:net";
import { diag, trace } from "@opentelemetry/api";
import { afterEach, describe, expect, it, vi } from "vitest";

/**
 * A trace export that fails (lib/platform/observability/tracing.ts) is one readable warning in the log, written
 * outside any request: the batch exporter's timer keeps the context of the request whose span started it, and
 * that request's id (or trace) must not be put on a line that is not about it.
 */
const holder = globalThis as typeof globalThis & { __invoiceConsoleServer?: unknown };

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  vi.resetModules();
  diag.disable();
  trace.disable();
  delete holder.__invoiceConsoleServer;
});

/** A local port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("a failed trace export", () => {
  it("is one 'traces:' warning outside the request whose span was being sent", async () => {
    vi.stubEnv("OTEL_EXPORTER_OTLP_ENDPOINT", `http://127.0.0.1:${await closedPort()}`);
    vi.stubEnv("OTEL_EXPORTER_OTLP_PROTOCOL", "http/json");
    vi.stubEnv("OTEL_BSP_SCHEDULE_DELAY", "50");
    vi.stubEnv("LOG_FORMAT", "json");
    const requests = new AsyncLocalStorage<{ upstreamCalls: number; requestId: string }>();
    holder.__invoiceConsoleServer = { requests };
    const lines: string[] = [];
    vi.spyOn(fs, "writeSync").mockImplementation((_fd, data) => (lines.push(String(data)), String(data).length));
    const { startTracing } = await import("./tracing");
    const provider = startTracing();
    try {
      // The span ends while a request is served: the exporter's timer starts in that request's context.
      requests.run({ upstreamCalls: 0, requestId: "req-0003" }, () =>
        trace.getTracer("test").startActiveSpan("a request's span", (span) => span.end()),
      );
      const warning = await vi.waitFor(
        () => {
          const found = lines.map((line) => JSON.parse(line)).find((line) => String(line.msg).startsWith("traces: "));
          if (!found) throw new Error("not yet");
          return found;
        },
        { timeout: 10_000, interval: 50 },
      );
      expect(warning).toMatchObject({ level: "warn", msg: expect.stringMatching(/^traces: .*ECONNREFUSED/) });
      expect(warning).not.toHaveProperty("request_id");
      expect(warning).not.toHaveProperty("trace_id");
    } finally {
      await provider.shutdown().catch(() => {});
    }
  });
});
