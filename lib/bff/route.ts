import "server-only";
import type { z } from "zod";
import { searchParamsToObject } from "@/lib/invoicing";
import { Problem, problemResponse } from "@/lib/problem";

type Context<P> = { params: Promise<P> };

/**
 * The one wrapper around every console API route: run the handler, answer its result as JSON (never
 * cached: answers depend on who asks), and any failure as a problem.
 */
export function bffRoute<P = Record<string, never>>(handler: (request: Request, params: P) => Promise<unknown>) {
  return async (request: Request, context: Context<P>): Promise<Response> => {
    try {
      const body = await handler(request, await context.params);
      return body instanceof Response ? body : Response.json(body, { headers: { "cache-control": "private, no-store" } });
    } catch (error) {
      return problemResponse(error);
    }
  };
}

/** The request's query string read with a contract schema; a broken rule is a 422 and nothing goes upstream. */
export function parseQuery<S extends z.ZodType>(request: Request, schema: S): z.output<S> {
  const parsed = schema.safeParse(searchParamsToObject(new URL(request.url).searchParams));
  if (!parsed.success) throw Problem.fromZod(parsed.error, "query");
  return parsed.data;
}
