import { AsyncLocalStorage } from "node:async_hooks";
import { context, trace } from "@opentelemetry/api";
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-node";
import { afterEach, describe, expect, it, vi } from "vitest";
import { currentRequestId } from "@/lib/platform/server-lifecycle";

/**
 * A bulk job started by a person's request runs outside it (lib/console/invoices/bulk-runner.ts): not that
 * request's id, not its trace; its own span links back to the request's.
 */
const seen = vi.hoisted(() => ({ requestId: undefined as string | undefined, traceId: undefined as string | undefined }));
vi.mock("@/lib/platform/db", () => ({ getDatabase: async () => ({}) }));
vi.mock("@/lib/console/upstream/client", () => ({ upstream: () => ({}) }));
vi.mock("./bulk-cancel", () => ({
  unfinishedJobIds: async () => [],
  runBulkJob: async () => {
    seen.requestId = currentRequestId();
    seen.traceId = trace.getActiveSpan()?.spanContext().traceId;
  },
}));

const holder = globalThis as typeof globalThis & { __invoiceConsoleServer?: unknown };
afterEach(() => {
  trace.disable();
  context.disable();
  delete holder.__invoiceConsoleServer;
});

describe("runInBackground", () => {
  it("runs the job outside the request that started it, in its own trace linked to the request's", async () => {
    const exporter = new InMemorySpanExporter();
    new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).register();
    const requests = new AsyncLocalStorage<{ upstreamCalls: number; requestId: string }>();
    holder.__invoiceConsoleServer = { requests };
    const { runInBackground } = await import("./bulk-runner");

    const request = trace.getTracer("test").startSpan("the person's request");
    requests.run({ upstreamCalls: 0, requestId: "req-0004" }, () =>
      context.with(trace.setSpan(context.active(), request), () => runInBackground("job-1")),
    );
    request.end();
    const job = await vi.waitFor(() => {
      const span = exporter.getFinishedSpans().find((s) => s.name === "bulk job");
      if (!span) throw new Error("not yet");
      return span;
    });
    expect(seen.requestId).toBeUndefined();
    expect(seen.traceId).toBe(job.spanContext().traceId);
    expect(job.spanContext().traceId).not.toBe(request.spanContext().traceId);
    expect(job.links.map((link) => link.context.spanId)).toEqual([request.spanContext().spanId]);
  });
});
