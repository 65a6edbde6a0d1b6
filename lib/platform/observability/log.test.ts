import { AsyncLocalStorage } from "node:async_hooks";
import fs from "node:fs";
import { context, propagation, trace } from "@opentelemetry/api";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { afterEach, describe, expect, it, vi } from "vitest";

/**
 * The app's one logger (lib/platform/observability/log.ts): with LOG_FORMAT=json a line is JSON with the
 * serving request's id and an error's stack in `err.stack`; otherwise a line for a person, the stack under it.
 */
const holder = globalThis as typeof globalThis & { __invoiceConsoleServer?: unknown };

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  vi.resetModules();
  delete holder.__invoiceConsoleServer;
});

/** Runs `write` as the server layer serves a request with this id, answering what the logger wrote to stdout. */
async function written(format: "json" | "text", write: (log: typeof import("./log").log) => void): Promise<string> {
  vi.stubEnv("LOG_FORMAT", format);
  const requests = new AsyncLocalStorage<{ upstreamCalls: number; requestId: string }>();
  holder.__invoiceConsoleServer = { requests };
  const lines: string[] = [];
  vi.spyOn(fs, "writeSync").mockImplementation((_fd, data) => (lines.push(String(data)), String(data).length));
  vi.spyOn(process.stderr, "write").mockImplementation((data) => (lines.push(String(data)), true));
  const { log } = await import("./log");
  requests.run({ upstreamCalls: 0, requestId: "req-0001" }, () => write(log));
  return lines.join("");
}

describe("log", () => {
  it("LOG_FORMAT=json: one JSON line with the request's id and the error's stack in err.stack", async () => {
    const out = await written("json", (log) => log.error({ err: new Error("the disk is full") }, "search sync: a turn failed"));
    const line = JSON.parse(out.trim());
    expect(line).toMatchObject({ level: "error", msg: "search sync: a turn failed", request_id: "req-0001" });
    expect(line.err).toMatchObject({ type: "Error", message: "the disk is full" });
    expect(line.err.stack).toMatch(/^Error: the disk is full\n\s+at /);
    expect(out.trim().split("\n")).toHaveLength(1);
  });

  it("is what lib/contract's toProblem logs an unexpected error with: once, answered without internals", async () => {
    const { toProblem } = await import("@/lib/contract/problem");
    let answered: unknown;
    const out = await written("json", () => {
      answered = toProblem(new TypeError("cannot read properties of undefined"));
    });
    expect(answered).toMatchObject({ code: "internal_error" });
    const lines = out
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: "error", msg: "unexpected error", request_id: "req-0001", err: { type: "TypeError" } });
  });

  it("writes through the server layer's pino when the server runs it (one logger per process)", async () => {
    const lines: string[] = [];
    const { createPino } = await import("./pino.mjs");
    vi.spyOn(fs, "writeSync").mockImplementation((_fd, data) => (lines.push(String(data)), String(data).length));
    const requests = new AsyncLocalStorage<{ upstreamCalls: number; requestId: string }>();
    const logger = createPino({ json: true, requestId: () => requests.getStore()?.requestId });
    holder.__invoiceConsoleServer = { requests, logger };
    const { log } = await import("./log");
    requests.run({ upstreamCalls: 0, requestId: "req-0002" }, () => log.info({ rows: 3 }, "through the server's logger"));
    expect(JSON.parse(lines.join(""))).toMatchObject({ msg: "through the server's logger", rows: 3, request_id: "req-0002" });
    expect(Object.getPrototypeOf(log)).toBe(logger);
  });

  it("puts the active span's trace_id on a line written in it (the child's formatter, over the server's pino)", async () => {
    const provider = new NodeTracerProvider();
    provider.register();
    try {
      const out = await written("json", (log) =>
        trace.getTracer("test").startActiveSpan("a request", (span) => {
          log.info("inside a span");
          span.end();
          return span.spanContext().traceId;
        }),
      );
      const line = JSON.parse(out.trim());
      expect(line).toMatchObject({ msg: "inside a span", request_id: "req-0001", trace_id: expect.stringMatching(/^[0-9a-f]{32}$/) });
    } finally {
      trace.disable();
      context.disable();
      propagation.disable();
    }
  });

  it("without the logger loaded, toProblem's unexpected error still goes out, on console.error", async () => {
    const printed = vi.spyOn(console, "error").mockImplementation(() => {});
    const { toProblem } = await import("@/lib/contract/problem");
    const error = new RangeError("out of range");
    expect(toProblem(error)).toMatchObject({ code: "internal_error", detail: expect.stringContaining("The error was logged") });
    expect(printed).toHaveBeenCalledWith("unexpected error", error);
  });

  it("text: the message for a person on stderr, the stack under it", async () => {
    const out = await written("text", (log) => log.warn({ err: new Error("no answer") }, "search index: could not re-read invoice"));
    expect(out).toMatch(/^search index: could not re-read invoice request_id=req-0001\nError: no answer\n\s+at /);
  });

  it("text: the fields beside the message, and what was thrown when it is not an Error", async () => {
    const out = await written("text", (log) =>
      log.error({ err: "the receiver hung up", delivery: 7 }, "Sandbox webhooks: could not record an attempt"),
    );
    expect(out).toBe("Sandbox webhooks: could not record an attempt request_id=req-0001 delivery=7\nthe receiver hung up\n");
  });
});
