import "server-only";
import { context, DiagLogLevel, diag, ROOT_CONTEXT } from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { defaultResource, resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, NodeTracerProvider, type SpanProcessor } from "@opentelemetry/sdk-trace-node";
import { log } from "@/lib/platform/observability/log";
import { currentRequestId, outsideRequest } from "@/lib/platform/server-lifecycle";

/**
 * Traces over OTLP/HTTP (ARCHITECTURE.md §2), started by instrumentation.ts only when
 * OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set. The SDK reads the standard
 * variables itself (OTEL_EXPORTER_OTLP_*, OTEL_TRACES_SAMPLER, OTEL_BSP_*); the service is OTEL_SERVICE_NAME, or
 * invoice-console. Registered globally with W3C trace context (no baggage), so Next.js's own request span (which
 * continues an incoming `traceparent` only a trusted proxy sent: scripts/server/server.mjs), the upstream client's spans and the sandbox's all join one trace. A failed export
 * is a warning in the log, never an error of a request.
 */
export function startTracing(): NodeTracerProvider {
  const provider = new NodeTracerProvider({
    resource: defaultResource().merge(
      resourceFromAttributes({ "service.name": process.env.OTEL_SERVICE_NAME?.trim() || "invoice-console" }),
    ),
    spanProcessors: [addressesWithoutQuery, requestIdOnSpans, new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  // W3C trace context only: no baggage is taken from a request or passed on to the provider.
  provider.register({ propagator: new W3CTraceContextPropagator() });
  // The SDK's own complaints (a collector that cannot be reached or refuses an export) go to the log, as warnings.
  // The batch exporter's timer runs in the context of whichever request started it: the warning is written
  // outside that request (its trace and its X-Request-Id), since an export is nobody's request.
  const say = (message: string, ...args: unknown[]) =>
    context.with(ROOT_CONTEXT, () =>
      outsideRequest(() => log.warn({ detail: args.map(String).join(" ") || undefined }, `traces: ${readable(message)}`)),
    );
  const quiet = () => {};
  diag.setLogger({ error: say, warn: say, info: quiet, debug: quiet, verbose: quiet }, DiagLogLevel.WARN);
  return provider;
}

/** The SDK writes a failed export's error as JSON: its message is what a person reads. */
function readable(message: string): string {
  try {
    const parsed = JSON.parse(message) as { message?: unknown };
    return typeof parsed.message === "string" ? parsed.message : message;
  } catch {
    return message;
  }
}

/** Every span started while a request is served carries its X-Request-Id, as its log lines and problems do. */
const requestIdOnSpans: SpanProcessor = {
  onStart(span) {
    const id = currentRequestId();
    if (id) span.setAttribute("request_id", id);
  },
  onEnd() {},
  forceFlush: () => Promise.resolve(),
  shutdown: () => Promise.resolve(),
};

/** The attributes Next.js (and HTTP instrumentations) put a request's address in, query string and all. */
const ADDRESS_ATTRIBUTES = new Set(["http.target", "http.url", "url.full"]);

/**
 * A query string holds what people typed (a search, an e-mail, `/login?next=…` with a form's draft): no span
 * carries it to the collector. Next.js's request span sets `http.target: req.url` as it starts, and a route
 * handler sets it again later, so the span's own setAttribute is wrapped: an address keeps only its path.
 */
const addressesWithoutQuery: SpanProcessor = {
  onStart(span) {
    const set = span.setAttribute.bind(span);
    span.setAttribute = (key, value) => {
      if (key === "url.query") return span;
      return set(key, ADDRESS_ATTRIBUTES.has(key) && typeof value === "string" ? value.split(/[?#]/)[0] : value);
    };
    const attributes = span.attributes as Record<string, unknown>;
    delete attributes["url.query"];
    for (const key of ADDRESS_ATTRIBUTES) if (typeof attributes[key] === "string") span.setAttribute(key, attributes[key]);
  },
  onEnd() {},
  forceFlush: () => Promise.resolve(),
  shutdown: () => Promise.resolve(),
};
