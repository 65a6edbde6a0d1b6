import "server-only";
import { context, propagation, type Span, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import type { Dispatcher } from "undici";
import {
  type ArchivedInvoiceInput,
  archivedInvoiceRequestJson,
  type DeliveryLogQuery,
  deliveryLogSearchParams,
  type InvoiceListQuery,
  type InvoiceStatusUpdate,
  invoiceListQueryToSearchParams,
  type WebhookSimulation,
} from "@/lib/contract";
import { isDotSegment } from "@/lib/contract/invoice-href";
import { operationOf } from "@/lib/contract/operation";
import { Problem } from "@/lib/contract/problem";
import { type ConcurrencyLimit, createCoalescer } from "@/lib/platform/concurrency-limit";
import { getDatabase } from "@/lib/platform/db";
import { embeddedSandboxKey } from "@/lib/platform/embedded-sandbox-key";
import { env } from "@/lib/platform/env";
import { log } from "@/lib/platform/observability/log";
import { histogram, REQUEST_BUCKETS } from "@/lib/platform/observability/metrics";
import { countUpstreamCall } from "@/lib/platform/server-lifecycle";
import { upstreamLimit } from "./limiter";
import { normaliseInvoice, normaliseInvoiceList, normaliseSimulationResult } from "./normalise";
import { normaliseCurrencies } from "./normalise-currencies";
import { normaliseDeliveries, normaliseDeliveryPage } from "./normalise-deliveries";
import { normaliseOpenApi } from "./normalise-openapi";
import { normaliseHistoricalRates, normaliseRates } from "./normalise-rates";
import { answeredWith, failed, invalidAnswer, outcomeOf, unreachable } from "./refusals";
import { type Answer, AnswerTooLarge, COMPRESSED, embeddedHeaders, send } from "./transport";

/**
 * `embedded`: the upstream is this process's own sandbox, reached over HTTP like any provider.
 * `limit` bounds the calls in flight; past it a call fails at once with a 503 problem (./limiter.ts).
 */
export type UpstreamConfig = {
  baseUrl: string;
  /** The key itself, or how to get it once (the console's own key to its embedded sandbox is in the database). */
  apiKey: string | (() => Promise<string>);
  timeoutMs: number;
  embedded?: boolean;
  limit?: ConcurrencyLimit;
};

/**
 * The console's only way to the invoicing API: HTTP to the configured base URL with the Api-key header, a
 * timeout on every call, and every answer normalised once into the console's shapes (lib/contract) from
 * whatever legal choices the provider made (./normalise.ts). Failures come back as problems a person can act
 * on (ARCHITECTURE.md §4), with the provider's own message on the field it names; the key never leaves this module.
 * Ids are opaque: used as given, URL-encoded.
 */
export function createUpstream(config: UpstreamConfig) {
  type CallOptions = {
    method?: Dispatcher.HttpMethod;
    headers?: Record<string, string>;
    body?: string;
    /** A 404 means "no such thing" and is passed on; elsewhere it means the base URL is wrong. */
    resource?: boolean;
    /** The one field the request sent: a 422 that names no field is about this one. */
    soleField?: string;
  };

  const reads = createCoalescer();
  const apiKey = typeof config.apiKey === "string" ? () => config.apiKey as string : once(config.apiKey);
  const limited = <T>(task: () => Promise<T>) => (config.limit ? config.limit.run(task) : task());

  /**
   * `read` turns the answer into the console's shape, or null when it is not one at all. Identical GETs in
   * flight at the same moment share one call (and one answer, which nobody mutates); only the first of them
   * gets the upstream span (and counts the call), in its own request's trace: the others wait on it, unseen. A change (any other
   * method) ends that sharing when it starts and when it ends, so no read made after a change gets an answer
   * read before it.
   */
  function call<T>(read: (body: unknown) => T | null, what: string, path: string, init: CallOptions = {}): Promise<T> {
    const send = () => limited(() => request(read, what, path, init));
    if ((init.method ?? "GET") === "GET") return reads.run(path, send);
    reads.forgetAll();
    return send().finally(() => reads.forgetAll());
  }

  /**
   * One call to the provider (a read retried after a short 503 included), timed, with its outcome, in
   * a span of its own, a child of the console request's, whose `traceparent` goes with the call (ARCHITECTURE.md §2).
   */
  function request<T>(read: (body: unknown) => T | null, what: string, path: string, init: CallOptions): Promise<T> {
    const method = init.method ?? "GET";
    const labels = { operation: operationOf(method, path), outcome: "ok" };
    const attributes = { "http.request.method": method, "url.template": labels.operation.slice(method.length + 1) };
    return tracer.startActiveSpan(`invoicing-api ${labels.operation}`, { kind: SpanKind.CLIENT, attributes }, async (span) => {
      const started = performance.now();
      try {
        return await unmeasured(read, what, path, init, span);
      } catch (error) {
        labels.outcome = outcomeOf(error);
        span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Problem ? error.code : String(error) });
        throw error;
      } finally {
        upstreamCalls().observe(labels, (performance.now() - started) / 1000);
        span.setAttribute("outcome", labels.outcome);
        span.end();
      }
    });
  }

  async function unmeasured<T>(read: (body: unknown) => T | null, what: string, path: string, init: CallOptions, span: Span): Promise<T> {
    let response: Answer;
    const key = await apiKey();
    const method = init.method ?? "GET";
    const traceContext: Record<string, string> = {};
    propagation.inject(context.active(), traceContext);
    for (let attempt = 1; ; attempt++) {
      countUpstreamCall();
      try {
        response = await send(`${config.baseUrl}${path}`, {
          method,
          body: init.body,
          headers: {
            accept: "application/json",
            ...init.headers,
            ...traceContext,
            ...(config.embedded ? embeddedHeaders() : COMPRESSED),
            "api-key": key,
          },
          signal: AbortSignal.timeout(config.timeoutMs),
        });
      } catch (error) {
        throw unreachable(error, config);
      }
      // A provider shedding load for a moment (503 with a short Retry-After): a read is asked once more after
      // that wait, instead of failing a page that would work a second later. Changes are never sent twice.
      const wait = Number(response.headers.get("retry-after") ?? Number.NaN);
      if (method !== "GET" || response.status !== 503 || attempt > 1 || !(wait >= 0 && wait <= BUSY_RETRY_MAX_SECONDS)) break;
      response.discard();
      await new Promise((resolve) => setTimeout(resolve, Math.max(wait, 0.2) * 1000));
    }
    span.setAttribute("http.response.status_code", response.status);
    if (response.status < 200 || response.status > 299) {
      const problem = await failed(response, path, init.resource ?? false, init.soleField).finally(() => response.discard());
      throw answeredWith(problem, response.status);
    }

    let body: unknown;
    try {
      body = await response.json();
    } catch (error) {
      if (error instanceof DOMException && error.name === "TimeoutError") throw unreachable(error, config);
      if (error instanceof AnswerTooLarge) throw answeredWith(invalidAnswer(`${path.split("?")[0]}: ${error.message}.`), response.status);
      throw answeredWith(invalidAnswer(`${path} did not answer JSON.`), response.status);
    }
    const normalised = read(body);
    if (normalised === null) throw answeredWith(invalidAnswer(`${path.split("?")[0]} did not answer ${what}.`), response.status);
    return normalised;
  }

  const invoicePath = (id: string) => {
    // Ids are opaque, but no provider's id is empty, a dot segment (sent, it would name another path) or holds
    // control characters (which the audit log's PostgreSQL could not even store): the provider is not asked.
    if (id.trim() === "" || isDotSegment(id) || /[\u0000-\u001f\u007f]/.test(id) || id.length > 500) {
      throw Problem.of("not_found", { detail: "No invoice has this id.", upstreamStatus: null });
    }
    return `/invoices/${encodeURIComponent(id)}`;
  };

  return {
    listInvoices: async (query: InvoiceListQuery) => {
      const { skipped, ...list } = await call(
        normaliseInvoiceList,
        "a list of invoices (items and pagination)",
        `/invoices?${invoiceListQueryToSearchParams(query)}`,
      );
      if (skipped) log.warn({ skipped }, `invoicing API: ${skipped} invoice(s) without an id left out of a list`);
      return list;
    },
    // Async, so an id refused by invoicePath is a rejected promise like any other answer, never a throw.
    getInvoice: async (id: string) => call(normaliseInvoice, "an invoice with an id", invoicePath(id), { resource: true }),
    updateInvoiceStatus: async (id: string, body: InvoiceStatusUpdate) =>
      call(normaliseInvoice, "the updated invoice with an id", invoicePath(id), {
        resource: true,
        soleField: "status",
        method: "PATCH",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      }),
    listCurrencies: () => call(normaliseCurrencies, "a list of currencies", "/currencies"),
    /** GET /rates (spec §4.6): EUR per unit by code. A 429 comes back as a 429 problem with Retry-After. */
    getRates: () => call(normaliseRates, "rates (EUR per unit of each currency)", "/rates"),
    /**
     * GET /rates?at=<UTC minute> (the sandbox's extension, README "Rates in the console"): the rates of that
     * minute and the minute the provider says it priced (`at`), or null when its answer says none: a provider
     * that ignores `at` answers its current rates, and they are passed on as such, never as historical.
     */
    getRatesAt: (minute: string) =>
      call(normaliseHistoricalRates, "rates (EUR per unit of each currency)", `/rates?at=${encodeURIComponent(minute)}`),
    /** POST /archived (spec §4.5); fields left empty are not sent, so the provider's defaults apply. */
    createArchivedInvoice: (body: ArchivedInvoiceInput) =>
      call(normaliseInvoice, "the archived invoice with an id", "/archived", {
        method: "POST",
        headers: { "content-type": "application/json" },
        // The amounts are decimal strings, sent as JSON numbers with exactly their digits.
        body: archivedInvoiceRequestJson(body),
      }),
    /** POST /webhooks/simulate (spec §4.4); its 404 is "invoice not found", as the spec lists. */
    simulateWebhook: (body: WebhookSimulation) =>
      call(normaliseSimulationResult, "an object with status and message", "/webhooks/simulate", {
        resource: true,
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      }),
    /**
     * The sandbox's deliveries extension (ARCHITECTURE.md §3). Optional: a provider that answers 404 (or 405, or 501)
     * does not offer it, which is null here, never an error.
     */
    listWebhookDeliveries: async (id: string) => {
      try {
        return await call(normaliseDeliveries, "a list of webhook deliveries", `${invoicePath(id)}/webhook-deliveries`, { resource: true });
      } catch (error) {
        if (error instanceof Problem && [404, 405, 501].includes(error.upstreamStatus ?? 0)) return null;
        throw error;
      }
    },
    /** The deliveries log (the sandbox's GET /webhook-deliveries); null from a provider without it, as above. */
    listAllWebhookDeliveries: async (query: DeliveryLogQuery) => {
      try {
        return await call(normaliseDeliveryPage, "a page of webhook deliveries", `/webhook-deliveries?${deliveryLogSearchParams(query)}`);
      } catch (error) {
        if (error instanceof Problem && [404, 405, 501].includes(error.upstreamStatus ?? 0)) return null;
        throw error;
      }
    },
    /** The provider's own OpenAPI 3 document at its base URL (`/openapi.json`), or null when it serves none. */
    getOpenApiDocument: async () => {
      try {
        return await call(normaliseOpenApi, "an OpenAPI 3 document", "/openapi.json");
      } catch (error) {
        // An answer that is not such a document (a web page served for any path) is no document either.
        if (error instanceof Problem && ([404, 405, 501].includes(error.upstreamStatus ?? 0) || error.code === "upstream_invalid_response"))
          return null;
        throw error;
      }
    },
    /** POST /webhook-deliveries/{id}/redeliver (the sandbox's extension): the delivery, with the new attempt. */
    redeliverWebhook: async (webhookId: string) =>
      call(
        (raw) => normaliseDeliveries([raw])?.[0] ?? null,
        "the webhook delivery",
        `/webhook-deliveries/${encodeURIComponent(webhookId)}/redeliver`,
        { resource: true, method: "POST" },
      ),
  };
}

export type Upstream = ReturnType<typeof createUpstream>;

const upstreamCalls = () =>
  histogram(
    "invoice_console_upstream_request_duration_seconds",
    "Calls to the invoicing API: seconds until the answer was read, by operation (method and path pattern) and outcome.",
    ["operation", "outcome"],
    REQUEST_BUCKETS,
  );

const tracer = trace.getTracer("invoice-console");

/** A read the provider sheds with a Retry-After of at most this many seconds is asked once more after it. */
const BUSY_RETRY_MAX_SECONDS = 2;

/** The first call's answer for every later one; a failure is not kept, the next call tries again. */
function once(get: () => Promise<string>): () => string | Promise<string> {
  let value: string | undefined;
  let pending: Promise<string> | undefined;
  return () =>
    value ??
    (pending ??= get().then(
      (got) => (value = got),
      (error: unknown) => {
        pending = undefined;
        throw error;
      },
    ));
}

let configured: Upstream | undefined;

/**
 * The upstream named by the environment (the embedded sandbox unless INVOICING_API_URL is set), with
 * INVOICING_API_KEY, or on the embedded sandbox without one the console's own key (never a public demo key).
 */
export function upstream(): Upstream {
  const e = env();
  return (configured ??= createUpstream({
    baseUrl: e.invoicingApiUrl,
    apiKey: e.invoicingApiKey ?? (async () => embeddedSandboxKey(await getDatabase())),
    timeoutMs: e.upstreamTimeoutMs,
    embedded: e.embeddedSandbox,
    limit: upstreamLimit(),
  }));
}
