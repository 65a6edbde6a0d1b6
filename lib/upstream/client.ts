import "server-only";
import type { z } from "zod";
import { env } from "@/lib/env";
import {
  currencyListSchema,
  invoiceListQueryToSearchParams,
  invoiceListSchema,
  invoiceSchema,
  type InvoiceListQuery,
  type InvoiceStatusUpdate,
} from "@/lib/invoicing";
import { Problem } from "@/lib/problem";

export type UpstreamConfig = { baseUrl: string; apiKey: string; timeoutMs: number };

/**
 * The console's only way to the invoicing API: HTTP to the configured base URL with the Api-key header, a
 * timeout on every call, and every answer validated against the contract. Failures come back as problems a
 * person can act on (DESIGN §4); the key never leaves this module.
 */
export function createUpstream(config: UpstreamConfig) {
  /** `resource`: a 404 means "no such thing" and is passed on; elsewhere it means the base URL is wrong. */
  async function call<S extends z.ZodType>(schema: S, path: string, init: RequestInit & { resource?: boolean } = {}): Promise<z.output<S>> {
    let response: Response;
    try {
      response = await fetch(`${config.baseUrl}${path}`, {
        ...init,
        headers: { accept: "application/json", ...init.headers, "api-key": config.apiKey },
        signal: AbortSignal.timeout(config.timeoutMs),
        cache: "no-store",
        // Never follow a redirect: it would carry the Api-key header to wherever it points.
        redirect: "error",
      });
    } catch (error) {
      throw unreachable(error, config);
    }
    if (!response.ok) {
      const problem = await failed(response, path, init.resource ?? false);
      throw answeredWith(problem, response.status);
    }

    let body: unknown;
    try {
      body = await response.json();
    } catch (error) {
      if (error instanceof DOMException && error.name === "TimeoutError") throw unreachable(error, config);
      throw answeredWith(invalidAnswer(`${path} did not answer JSON.`), response.status);
    }
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw answeredWith(invalidAnswer(`${path}: ${issue.path.join(".") || "body"} ${issue.message}.`), response.status);
    }
    return parsed.data;
  }

  return {
    listInvoices: (query: InvoiceListQuery) =>
      call(invoiceListSchema, `/invoices?${invoiceListQueryToSearchParams(query)}`),
    getInvoice: (id: string) => call(invoiceSchema, `/invoices/${encodeURIComponent(id)}`, { resource: true }),
    updateInvoiceStatus: (id: string, body: InvoiceStatusUpdate) =>
      call(invoiceSchema, `/invoices/${encodeURIComponent(id)}`, {
        resource: true,
        method: "PATCH",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      }),
    listCurrencies: () => call(currencyListSchema, "/currencies"),
  };
}

export type Upstream = ReturnType<typeof createUpstream>;

let configured: Upstream | undefined;

/** The upstream named by the environment (the embedded sandbox unless INVOICING_API_URL is set). */
export function upstream(): Upstream {
  const e = env();
  return (configured ??= createUpstream({ baseUrl: e.invoicingApiUrl, apiKey: e.invoicingApiKey, timeoutMs: e.upstreamTimeoutMs }));
}

function unreachable(error: unknown, config: UpstreamConfig): Problem {
  if (error instanceof DOMException && error.name === "TimeoutError") {
    return new Problem({
      status: 504,
      code: "upstream_timeout",
      upstreamStatus: null,
      title: "The invoicing API did not answer in time",
      detail: `No answer within ${config.timeoutMs / 1000} s. Try again in a moment; if it keeps happening, the provider may be overloaded.`,
    });
  }
  return new Problem({
    status: 502,
    code: "upstream_unreachable",
    upstreamStatus: null,
    title: "The invoicing API cannot be reached",
    detail: `Could not connect to ${new URL(config.baseUrl).host}. Try again shortly; an administrator should check INVOICING_API_URL and the provider's status.`,
  });
}

async function failed(response: Response, path: string, resource: boolean): Promise<Problem> {
  const { status } = response;
  if (status === 404 && !resource) {
    return new Problem({
      status: 502,
      code: "upstream_not_found",
      title: "The invoicing API has no such endpoint",
      detail: `${path.split("?")[0]} answered 404. An administrator should check that INVOICING_API_URL ends in /api/v1.`,
    });
  }
  if (status === 401) {
    return new Problem({
      status: 502,
      code: "upstream_key_rejected",
      title: "The console's API key was rejected",
      detail: "The invoicing API refused the console's key. An administrator should check INVOICING_API_KEY.",
    });
  }
  if (status === 429) {
    const retryAfter = response.headers.get("retry-after") ?? "60";
    return new Problem({
      status: 429,
      code: "upstream_rate_limited",
      title: "Too many requests to the invoicing API",
      detail: `Wait ${retryAfter} s and try again.`,
      headers: { "retry-after": retryAfter },
    });
  }
  if (status >= 500 || status < 400) {
    return new Problem({
      status: 502,
      code: "upstream_error",
      title: "The invoicing API failed",
      detail: `It answered HTTP ${status}. Try again; if it persists, the provider may be having an outage.`,
    });
  }
  // 400, 403, 404, 422…: the provider's own words are the most useful thing to show.
  return Problem.fromResponse(response);
}

function invalidAnswer(detail: string): Problem {
  return new Problem({
    status: 502,
    code: "upstream_invalid_response",
    title: "The invoicing API gave an answer the console does not understand",
    detail: `${detail} The provider may have changed its API; an administrator should check INVOICING_API_URL.`,
  });
}

/** The same problem, noting what the invoicing API itself answered (the audit log keeps it). */
function answeredWith(p: Problem, upstreamStatus: number): Problem {
  return new Problem({ status: p.status, code: p.code, title: p.title, detail: p.detail, errors: p.errors, headers: p.headers, upstreamStatus });
}
