import "server-only";
import { Problem, problemResponse } from "@/lib/contract/problem";

/** The methods a route module may export handlers for; HEAD follows GET, and OPTIONS says which are answered. */
export const ROUTE_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type RouteMethod = (typeof ROUTE_METHODS)[number];
type Exported = Record<RouteMethod | "OPTIONS", Handler>;

// Next.js's route context is typed per route (`{ params: Promise<…> }`); the exported handlers take what it passes.
type Handler = (request: Request, context: unknown) => Promise<Response>;

const REFUSES = Symbol.for("invoice-console.method-not-allowed");

/**
 * A route module's handlers for every method: those given, a 405 problem with an `Allow` header for the rest
 * (Next.js would answer an empty 405 with no Allow), and OPTIONS naming what is answered. Route files export
 * the result whole: `export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({ GET: … })`.
 */
export function methods<C>(handlers: Partial<Record<RouteMethod, (request: Request, context: C) => Promise<Response>>>): Exported {
  const allowed = ROUTE_METHODS.filter((m) => handlers[m]);
  const allow = [...allowed, ...(allowed.includes("GET") ? ["HEAD"] : []), "OPTIONS"].join(", ");
  const refuse: Handler = async (request) =>
    problemResponse(
      Problem.of("method_not_allowed", {
        title: "Method not allowed",
        detail: `${request.method} is not answered here. Use ${allow}.`,
        headers: { allow },
      }),
    );
  Object.assign(refuse, { [REFUSES]: true });
  const options: Handler = async () => new Response(null, { status: 204, headers: { allow } });
  return {
    ...(Object.fromEntries(ROUTE_METHODS.map((m) => [m, (handlers[m] as Handler | undefined) ?? refuse])) as Record<RouteMethod, Handler>),
    OPTIONS: options,
  };
}

/** The methods a route module really answers (the access tables in tests read this). */
export function answeredMethods(module: Record<string, unknown>): RouteMethod[] {
  return ROUTE_METHODS.filter((m) => typeof module[m] === "function" && !(REFUSES in (module[m] as object)));
}

/** Every method of an address that does not exist: a 404 problem, for API clients that expect JSON. */
export function noSuchEndpoint(what: string): Exported {
  const answer: Handler = async (request) =>
    problemResponse(
      Problem.of("not_found", {
        title: "Not found",
        detail: `${what} has no endpoint ${new URL(request.url).pathname}. Check the path against the API reference.`,
      }),
    );
  return Object.fromEntries([...ROUTE_METHODS, "OPTIONS"].map((m) => [m, answer])) as Exported;
}
