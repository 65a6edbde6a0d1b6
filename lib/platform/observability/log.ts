import "server-only";
import { isSpanContextValid, trace } from "@opentelemetry/api";
import pino, { type DestinationStream, type Logger } from "pino";
import { setErrorReporter } from "@/lib/contract/problem";
import { currentRequestId } from "@/lib/platform/server-lifecycle";

/**
 * The app's one logger (ARCHITECTURE.md §2, issue 26): pino, with the serving request's `request_id` (and, when
 * traces are on, its `trace_id`) on every line written while that request is served. An error goes in the `err`
 * field (`log.error({ err }, "what failed")`), logged once, where it is handled, with its stack in `err.stack`.
 *
 * LOG_FORMAT=json: one JSON line each, as the server layer's own (scripts/server/log.mjs). Otherwise the message as
 * a line for a person at the terminal, warnings and errors on stderr, an error's stack under it.
 */
export const log: Logger = pino(
  {
    base: null,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    mixin: () => {
      const requestId = currentRequestId();
      const span = trace.getActiveSpan()?.spanContext();
      return {
        ...(requestId ? { request_id: requestId } : {}),
        ...(span && isSpanContextValid(span) ? { trace_id: span.traceId } : {}),
      };
    },
  },
  process.env.LOG_FORMAT === "json" ? pino.destination({ dest: 1, sync: true }) : forPeople(),
);

// What lib/contract's toProblem logs unexpected errors with (that wing imports no server module).
setErrorReporter((error) => log.error({ err: error }, "unexpected error"));

function forPeople(): DestinationStream {
  return {
    write(line: string) {
      const { level, msg, err } = JSON.parse(line) as { level: string; msg?: string; err?: { stack?: string } };
      const out = level === "error" || level === "fatal" || level === "warn" ? process.stderr : process.stdout;
      out.write(`${msg ?? ""}${err?.stack ? `\n${err.stack}` : ""}\n`);
    },
  };
}
