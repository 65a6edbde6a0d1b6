import "server-only";
import { Problem } from "@/lib/contract/problem";
import type { ProblemCode } from "@/lib/contract/problem-codes";
import { readErrorBody } from "./error-body";
import type { Answer } from "./transport";

// What a provider's failure means to a person: each refusal, timeout or odd answer as a problem they can act on
// (ARCHITECTURE.md §4), with the provider's own words on the field it names.

/** ok, or what went wrong: timeout, unreachable, rate_limited, busy (its 503), server_error, invalid_response, refused (4xx), error. */
export function outcomeOf(error: unknown): string {
  if (!(error instanceof Problem)) return "error";
  switch (error.code) {
    case "upstream_timeout":
      return "timeout";
    case "upstream_unreachable":
      return "unreachable";
    case "upstream_rate_limited":
      return "rate_limited";
    case "overloaded":
      return "busy";
    case "upstream_error":
      return "server_error";
    case "upstream_invalid_response":
      return "invalid_response";
    default:
      return error.status >= 400 && error.status < 500 ? "refused" : "error";
  }
}

export function unreachable(error: unknown, config: { timeoutMs: number; baseUrl: string }): Problem {
  if (error instanceof DOMException && error.name === "TimeoutError") {
    return Problem.of("upstream_timeout", {
      upstreamStatus: null,
      detail: `No answer within ${config.timeoutMs / 1000} s. Try again in a moment; if it keeps happening, the provider may be overloaded.`,
    });
  }
  return Problem.of("upstream_unreachable", {
    upstreamStatus: null,
    detail: `Could not connect to ${new URL(config.baseUrl).host}. Try again shortly; an administrator should check INVOICING_API_URL and the provider's status.`,
  });
}

export async function failed(response: Answer, path: string, resource: boolean, soleField?: string): Promise<Problem> {
  const { status } = response;
  if (status === 404 && !resource) {
    return Problem.of("upstream_not_found", {
      detail: `${path.split("?")[0]} answered 404. An administrator should check that INVOICING_API_URL ends in /api/v1.`,
    });
  }
  if (status === 401) {
    return Problem.of("upstream_key_rejected", {
      detail: "The invoicing API refused the console's key. An administrator should check INVOICING_API_KEY.",
    });
  }
  if (status === 429) {
    const retryAfter = String(retryAfterSeconds(response.headers.get("retry-after")));
    return Problem.of("upstream_rate_limited", {
      detail: `Wait ${retryAfter} s and try again.`,
      headers: { "retry-after": retryAfter },
    });
  }
  if (status === 503 && response.headers.has("retry-after")) {
    // The provider sheds load and says when to come back: pass that on, so the page waits and retries.
    const retryAfter = String(retryAfterSeconds(response.headers.get("retry-after")));
    return Problem.of("overloaded", {
      detail: `The invoicing API is busy. Try again in ${retryAfter} s.`,
      headers: { "retry-after": retryAfter },
    });
  }
  if (status >= 500 || status < 400) {
    return Problem.of("upstream_error", {
      detail: `It answered HTTP ${status}. Try again; if it persists, the provider may be having an outage.`,
    });
  }
  // 400, 403, 404, 422…: the provider's own words are the most useful thing to show, on the field they name.
  const body = readErrorBody(await response.text().catch(() => ""), response.headers.get("content-type"));
  let errors = body.errors;
  if (status === 422 && errors.length === 0 && soleField && body.message) {
    errors = [{ pointer: `/${soleField}`, detail: body.message }];
  }
  return new Problem({
    status,
    // The provider's own code, unless it would read as one of the console's own refusals.
    code: (body.code && !CONSOLE_CODES.has(body.code) ? body.code : undefined) ?? REFUSAL_CODES[status] ?? "upstream_refused",
    title: REFUSAL_TITLES[status] ?? `The invoicing API refused the request (HTTP ${status})`,
    detail: body.message ?? undefined,
    errors: errors.length ? errors : undefined,
  });
}

const CONSOLE_CODES = new Set<string>([
  "forbidden",
  "unauthenticated",
  "cross_site_request",
  "network_error",
  "internal_error",
] satisfies ProblemCode[]);
const REFUSAL_CODES: Record<number, ProblemCode> = {
  400: "bad_request",
  403: "forbidden_upstream",
  404: "not_found",
  409: "conflict",
  422: "validation_failed",
};
const REFUSAL_TITLES: Record<number, string> = {
  400: "The invoicing API could not read the request",
  403: "The invoicing API refused access",
  404: "Not found",
  409: "The invoicing API refused the change",
  422: "The invoicing API did not accept a value",
};

export function invalidAnswer(detail: string): Problem {
  return Problem.of("upstream_invalid_response", {
    detail: `${detail} The provider may have changed its API; an administrator should check INVOICING_API_URL.`,
  });
}

/** The same problem, noting what the invoicing API itself answered (the audit log keeps it). */
export function answeredWith(p: Problem, upstreamStatus: number): Problem {
  return p.with({ upstreamStatus });
}

/** Retry-After as whole seconds: delay-seconds or an HTTP date (RFC 9110 §10.2.3); 60 when absent or unreadable. */
export function retryAfterSeconds(header: string | null, now: number = Date.now()): number {
  const value = header?.trim() ?? "";
  if (/^\d+$/.test(value)) return Math.min(Number(value), 86_400);
  const date = value ? Date.parse(value) : NaN;
  if (!Number.isNaN(date)) return Math.min(Math.max(0, Math.ceil((date - now) / 1000)), 86_400);
  return 60;
}
