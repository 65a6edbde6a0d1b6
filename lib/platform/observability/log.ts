import "server-only";
import { isSpanContextValid, trace } from "@opentelemetry/api";
import type { Logger } from "pino";
import { setErrorReporter } from "@/lib/contract/problem";
import { currentRequestId } from "@/lib/platform/server-lifecycle";
import { createPino } from "./pino.mjs";

/**
 * The app's one logger (ARCHITECTURE.md §2): a child of the server layer's pino (lib/platform/observability/pino.mjs,
 * on the `__invoiceConsoleServer` bridge), so the process has one, with the serving request's `request_id` (and,
 * when traces are on, its `trace_id`) on every line written while that request is served. An error goes in the
 * `err` field (`log.error({ err }, "what failed")`), logged once, where it is handled, with its stack in `err.stack`.
 * Without the server layer (`next dev`, unit tests) the same pino is made here.
 *
 * LOG_FORMAT=json: one JSON line each. Otherwise the message as a line for a person at the terminal, warnings and
 * errors on stderr, an error's stack under it.
 */
const layerLogger = (globalThis as typeof globalThis & { __invoiceConsoleServer?: { logger?: Logger } }).__invoiceConsoleServer?.logger;

export const log: Logger = (layerLogger ?? createPino({ json: process.env.LOG_FORMAT === "json", requestId: currentRequestId })).child(
  {},
  { formatters: { log: withTraceId } },
);

function withTraceId(fields: object): object {
  const span = trace.getActiveSpan()?.spanContext();
  return span && isSpanContextValid(span) ? { trace_id: span.traceId, ...fields } : fields;
}

// What lib/contract's toProblem logs unexpected errors with (that wing imports no server module).
setErrorReporter((error) => log.error({ err: error }, "unexpected error"));
