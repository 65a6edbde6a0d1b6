import type { z } from "zod";
import { signInIfSessionEnded } from "@/lib/browser/session-ended";
import type * as Contract from "@/lib/contract";
import { Problem } from "@/lib/contract/problem";

/**
 * The contract's schemas (and zod with them), loaded with the first answer a page reads instead of with the
 * page: a first view arrives with its data from the server and needs none of them to show it.
 */
const loadContract = () => import("@/lib/contract");

/** Picks the schema that reads an answer, e.g. `(c) => c.invoiceListSchema`. */
export type PickSchema<S extends z.ZodType> = (contract: typeof Contract) => S;

const unreachable = () =>
  Problem.of("network_error", {
    title: "The console cannot be reached",
    detail: "Check your connection and try again.",
  });

/** GET a console API route and read its answer with a contract schema; failures arrive as a Problem. */
export async function fetchJson<S extends z.ZodType>(url: string, pick: PickSchema<S>, init?: RequestInit): Promise<z.output<S>> {
  // Asked for at once, so the schemas load while the request is under way.
  const contract = loadContract();
  contract.catch(() => undefined);
  let response: Response;
  try {
    response = await fetch(url, { ...init, headers: { accept: "application/json", ...init?.headers } });
  } catch {
    throw unreachable();
  }
  const schemas = await contract.catch(() => {
    throw unreachable();
  });
  if (!response.ok) {
    throw await problemFromResponse(response, schemas.problemSchema);
  }
  const parsed = pick(schemas).safeParse(await response.json().catch(() => undefined));
  if (!parsed.success) {
    throw Problem.of("invalid_response", {
      title: "The console gave an answer this page does not understand",
      detail: "Reload the page; if it keeps happening, the console may have been updated mid-session.",
    });
  }
  return parsed.data;
}

/** A refused answer of a console route as a Problem (for callers that read the body themselves). */
export async function readProblem(response: Response): Promise<Problem> {
  const schemas = await loadContract();
  return problemFromResponse(response, schemas.problemSchema);
}

/**
 * A problem answer back into a Problem; anything that is not a problem becomes a generic one. A 401 (the
 * session ended) also sends the person to sign in again.
 */
async function problemFromResponse(response: Response, problemSchema: typeof Contract.problemSchema): Promise<Problem> {
  const status = response.status;
  signInIfSessionEnded({ status });
  const parsed = problemSchema.safeParse(await response.json().catch(() => undefined));
  // How long a 429 asks to wait travels with it, so a caller that retries can honour it.
  const retryAfter = response.headers.get("retry-after");
  const headers = retryAfter === null ? undefined : { "retry-after": retryAfter };
  if (!parsed.success) return new Problem({ status, code: "http_error", title: `The request failed (HTTP ${status})`, headers });
  const p = parsed.data;
  return new Problem({ status, code: p.code ?? "http_error", title: p.title, detail: p.detail, errors: p.errors, headers });
}
