import "server-only";
import { SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { operationOf } from "@/lib/contract/operation";
import { notFound, problemResponse } from "@/lib/contract/problem";
import { type ConcurrencyLimit, processConcurrencyLimit } from "@/lib/platform/concurrency-limit";
import { type Db, getDatabase } from "@/lib/platform/db";
import { embeddedSandboxKey } from "@/lib/platform/embedded-sandbox-key";
import { env } from "@/lib/platform/env";
import { withRequestId } from "@/lib/platform/observability/request-id";
import { openApiDocument } from "@/lib/sandbox/openapi";
import { authenticate, type Caller } from "./keys";
import { ensureConsoleKey, ensureSeeded } from "./seed";
import { wakeWebhookDispatcher } from "./webhooks";
import { wireJson } from "./wire";

export { createArchivedInvoice } from "./archived";
export { SANDBOX_CURRENCIES } from "./currencies";
export { listMerchantDeliveries, listWebhookDeliveries } from "./deliveries";
export { getInvoice, listInvoices, updateInvoiceStatus } from "./invoices";
export { type Caller, requireScope } from "./keys";
export { sandboxRates } from "./rates";
export { redeliverWebhook } from "./redeliver";
export { readSandboxJsonBody } from "./request-body";
export { simulateWebhook } from "./simulate";
export { wireJson } from "./wire";

const holder = globalThis as typeof globalThis & { __invoiceConsoleSandbox?: Promise<Db> };

/**
 * The sandbox's database, seeded on its first start (docs/sandbox.md). When this sandbox is the console's upstream
 * and no INVOICING_API_KEY is set, the console's own key is registered too, before any request is served.
 */
export function getSandboxDb(): Promise<Db> {
  if (!holder.__invoiceConsoleSandbox) {
    holder.__invoiceConsoleSandbox = getDatabase().then(async (db) => {
      await ensureSeeded(db);
      const e = env();
      if (e.embeddedSandbox && e.invoicingApiKey === null) await ensureConsoleKey(db, await embeddedSandboxKey(db));
      return db;
    });
    holder.__invoiceConsoleSandbox.catch(() => (holder.__invoiceConsoleSandbox = undefined));
  }
  return holder.__invoiceConsoleSandbox;
}

/** Sends the webhooks a change just queued, and any that are due. */
export function wakeWebhooks(): void {
  wakeWebhookDispatcher(getSandboxDb);
}

/** The sandbox's work in flight in this process, database included (SANDBOX_MAX_CONCURRENCY, OVERLOAD_MAX_WAIT_MS). */
function sandboxLimit(): ConcurrencyLimit {
  return processConcurrencyLimit("sandbox", () => {
    const { load } = env();
    return { what: "the sandbox", concurrency: load.sandboxConcurrency, queue: load.sandboxConcurrency * 4, maxWaitMs: load.maxWaitMs };
  });
}

type Handler<P> = (input: { request: Request; db: Db; caller: Caller; params: P }) => Promise<unknown>;

/**
 * Every sandbox route: authenticate the Api-key, run the handler, answer JSON or a problem. Handlers return
 * the body (200) or a Response of their own for other statuses. All of it runs in a slot of the sandbox's
 * concurrency limit: past it, a 503 with Retry-After at once rather than a queue that ends in timeouts.
 */
export function sandboxRoute<P = Record<string, never>>(handler: Handler<P>) {
  return (request: Request, context: { params: Promise<P> }): Promise<Response> => traced(request, () => answer(request, context));

  async function answer(request: Request, context: { params: Promise<P> }): Promise<Response> {
    try {
      if (!env().sandboxEnabled) {
        // With a real provider configured, the well-known test keys must not open anything.
        throw notFound("The sandbox is switched off on this console (SANDBOX_ENABLED=false).");
      }
      return await sandboxLimit().run(async () => {
        const db = await getSandboxDb();
        const caller = await authenticate(db, request.headers.get("api-key"));
        const result = await handler({ request, db, caller, params: await context.params });
        // Amounts are written with exactly their digits (lib/sandbox/wire.ts).
        return result instanceof Response ? result : wireJson(result, { headers: { "cache-control": "no-store" } });
      });
    } catch (error) {
      return withRequestId(problemResponse(error));
    }
  }
}

const tracer = trace.getTracer("invoice-console");

/**
 * The sandbox's span for one call, `sandbox GET /invoices/{id}`: a child of Next.js's request span, which
 * continues the caller's `traceparent`, so the console's call and the sandbox's answer are one trace
 * (ARCHITECTURE.md §2). A 5xx answer is an error; a refusal (4xx) is the caller's.
 */
function traced(request: Request, answer: () => Promise<Response>): Promise<Response> {
  return tracer.startActiveSpan("sandbox", { kind: SpanKind.INTERNAL }, async (span) => {
    // Named only when it is recorded: with tracing off (the usual case) a call costs no URL parsing.
    if (span.isRecording()) {
      span.updateName(`sandbox ${operationOf(request.method, new URL(request.url).pathname.replace(/^\/sandbox\/api\/v1/, ""))}`);
    }
    try {
      const response = await answer();
      span.setAttribute("http.response.status_code", response.status);
      if (response.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      return response;
    } finally {
      span.end();
    }
  });
}

/** GET /openapi.json: the sandbox's OpenAPI document, generated from the contract. Needs no key. */
export async function sandboxOpenApiRoute(): Promise<Response> {
  try {
    if (!env().sandboxEnabled) throw notFound("The sandbox is switched off on this console (SANDBOX_ENABLED=false).");
    return Response.json(openApiDocument(), { headers: { "cache-control": "public, max-age=300" } });
  } catch (error) {
    return withRequestId(problemResponse(error));
  }
}
