import type { z } from "zod";
import { problemSchema, type ProblemBody } from "@/lib/invoicing";

/**
 * The one error type of the app: an RFC 9457 problem (DESIGN §3). The sandbox and the console's proxy throw
 * it and answer with `problemResponse`; the browser turns a problem answer back into one with `fromResponse`,
 * so every layer speaks the same shape.
 */
export type FieldError = { pointer: string; code?: string; detail: string };

export class Problem extends Error {
  readonly status: number;
  readonly title: string;
  readonly detail: string | undefined;
  readonly code: string;
  readonly errors: FieldError[] | undefined;
  readonly headers: Record<string, string>;
  /** What the invoicing API answered, when this problem comes from its answer (null: it never answered). */
  readonly upstreamStatus: number | null | undefined;

  constructor(init: {
    status: number;
    code: string;
    title: string;
    detail?: string;
    errors?: FieldError[];
    headers?: Record<string, string>;
    upstreamStatus?: number | null;
  }) {
    super(init.detail ?? init.title);
    this.name = "Problem";
    this.status = init.status;
    this.code = init.code;
    this.title = init.title;
    this.detail = init.detail;
    this.errors = init.errors;
    this.headers = init.headers ?? {};
    this.upstreamStatus = init.upstreamStatus;
  }

  toJSON(): ProblemBody {
    return {
      type: `urn:invoice-console:problem:${this.code}`,
      title: this.title,
      status: this.status,
      ...(this.detail ? { detail: this.detail } : {}),
      code: this.code,
      ...(this.errors ? { errors: this.errors } : {}),
    };
  }

  /** Validation failure of a request (query, body): 422 with one entry per broken rule. */
  static fromZod(error: z.ZodError, what = "request"): Problem {
    const errors = error.issues.flatMap((issue) => {
      const at = issue.path.map(String);
      // An unknown field is named by its own pointer, so it shows where it was sent.
      const paths = issue.code === "unrecognized_keys" ? issue.keys.map((key) => [...at, key]) : [at];
      return paths.map((path) => ({ pointer: `/${path.join("/")}`, code: issue.code, detail: issue.message }));
    });
    const first = errors[0];
    return new Problem({
      status: 422,
      code: "validation_failed",
      title: `The ${what} is not valid`,
      detail: first ? `${first.pointer.slice(1) || what} ${first.detail}` : undefined,
      errors,
    });
  }

  /** Rebuilds a problem from a parsed JSON answer; anything that is not a problem becomes a generic one. */
  static fromBody(status: number, body: unknown): Problem {
    const parsed = problemSchema.safeParse(body);
    if (!parsed.success) {
      return new Problem({ status, code: "http_error", title: `The request failed (HTTP ${status})` });
    }
    const p = parsed.data;
    return new Problem({
      status,
      code: p.code ?? "http_error",
      title: p.title,
      detail: p.detail,
      errors: p.errors,
    });
  }

  static async fromResponse(response: Response): Promise<Problem> {
    const body = await response.json().catch(() => undefined);
    const problem = Problem.fromBody(response.status, body);
    // How long a 429 asks to wait travels with it, so a caller that retries can honour it.
    const retryAfter = response.headers.get("retry-after");
    return retryAfter === null
      ? problem
      : new Problem({ status: problem.status, code: problem.code, title: problem.title, detail: problem.detail, errors: problem.errors, headers: { "retry-after": retryAfter } });
  }
}

export const notFound = (detail: string) => new Problem({ status: 404, code: "not_found", title: "Not found", detail });

/** Anything thrown → a problem. Unexpected errors are logged here and answered without internals. */
export function toProblem(error: unknown): Problem {
  if (error instanceof Problem) return error;
  console.error(error);
  return new Problem({
    status: 500,
    code: "internal_error",
    title: "Something went wrong on our side",
    detail: "The error was logged. Try again; if it keeps happening, contact support.",
  });
}

export function problemResponse(error: unknown): Response {
  const problem = toProblem(error);
  return Response.json(problem.toJSON(), {
    status: problem.status,
    headers: { "content-type": "application/problem+json", "cache-control": "no-store", ...problem.headers },
  });
}
