import type { z } from "zod";
import type { ProblemBody } from "@/lib/contract";
import { PROBLEM_CODES, type ProblemCode } from "@/lib/contract/problem-codes";

/**
 * The one error type of the app: an RFC 9457 problem (ARCHITECTURE.md §3). The sandbox and the console's proxy throw
 * it and answer with `problemResponse`; the browser turns a problem answer back into one
 * (lib/browser/query/fetch-json.ts), so every layer speaks the same shape.
 */
export type FieldError = { pointer: string; code?: string; detail: string };

/** A problem as plain data: what a server action's answer carries to the browser, which makes a Problem of it again. */
export type ProblemData = { status: number; code: string; title: string; detail?: string; errors?: FieldError[] };

type ProblemInit = {
  status: number;
  /** One of ours (lib/contract/problem-codes.ts), or a provider's own code passed on as it came. */
  code: string;
  title: string;
  detail?: string;
  errors?: FieldError[];
  headers?: Record<string, string>;
  upstreamStatus?: number | null;
};

export class Problem extends Error {
  readonly status: number;
  readonly title: string;
  readonly detail: string | undefined;
  readonly code: string;
  readonly errors: FieldError[] | undefined;
  readonly headers: Record<string, string>;
  /** What the invoicing API answered, when this problem comes from its answer (null: it never answered). */
  readonly upstreamStatus: number | null | undefined;

  constructor(init: ProblemInit) {
    super(problemDetail(init));
    this.name = "Problem";
    this.status = init.status;
    this.code = init.code;
    this.title = init.title;
    this.detail = init.detail;
    this.errors = init.errors;
    this.headers = init.headers ?? {};
    this.upstreamStatus = init.upstreamStatus;
  }

  /** A problem of a registered code: its status and title come from the registry; the title may be more precise. */
  static of(code: ProblemCode, init: Partial<Omit<ProblemInit, "code" | "status">> = {}): Problem {
    const { status, title } = PROBLEM_CODES[code];
    return new Problem({ status, title, ...init, code });
  }

  /** Whether this is the problem `code` names; the compiler checks `code` against the registry. */
  is(code: ProblemCode): boolean {
    return this.code === code;
  }

  /** A copy with some fields changed (what the invoicing API answered, a header). */
  with(changes: Partial<ProblemInit>): Problem {
    return new Problem({ ...this.init(), ...changes });
  }

  private init(): ProblemInit {
    const { status, code, title, detail, errors, headers, upstreamStatus } = this;
    return { status, code, title, detail, errors, headers, upstreamStatus };
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
    return Problem.of("validation_failed", {
      title: `The ${what} is not valid`,
      detail: first ? `${first.pointer.slice(1) || what} ${first.detail}` : undefined,
      errors,
    });
  }
}

/** How long a busy answer (503 `overloaded`) asks to wait, in whole seconds; null for any other failure. */
export function busySeconds(error: unknown): number | null {
  if (!(error instanceof Problem) || !error.is("overloaded")) return null;
  const seconds = Number(error.headers["retry-after"]);
  return Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds, 30) : 2;
}

/**
 * A problem as the words a person reads (ARCHITECTURE.md §3): its title, then its detail when it has one, as
 * two sentences ("The invoicing API did not answer in time. No answer within 10 s."). The one way every layer
 * says what went wrong, from a stored reason to a toast; `problem` may be a Problem or a problem body.
 */
export function problemSentence(problem: { title: string; detail?: string | null }): string {
  const title = problem.title.trim();
  const detail = problem.detail?.trim();
  if (!detail) return title;
  return /[.!?:]$/.test(title) ? `${title} ${detail}` : `${title}. ${detail}`;
}

/**
 * The short form, after a heading of the caller's own that already says what failed ("The test webhook was not
 * sent", "The invoicing API answered: …"): the problem's detail, or its title when it has none.
 */
export function problemDetail(problem: { title: string; detail?: string | null }): string {
  return problem.detail?.trim() || problem.title;
}

export const notFound = (detail: string) => Problem.of("not_found", { detail });

let reportError = (error: unknown) => console.error("unexpected error", error);

/**
 * Where toProblem reports an unexpected error: the server's logger sets itself as it loads
 * (lib/platform/observability/log.ts, which this wing may not import); until then, console.error.
 */
export function setErrorReporter(report: (error: unknown) => void): void {
  reportError = report;
}

/**
 * Anything thrown → a problem. Unexpected errors are reported here, once, with their stack, and answered
 * without internals.
 */
export function toProblem(error: unknown): Problem {
  if (error instanceof Problem) return error;
  reportError(error);
  return Problem.of("internal_error", {
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
