import "server-only";
import { secondFactorRequired, unauthenticated } from "@/lib/console/auth/errors";
import { type SessionUser, sessionUser } from "@/lib/console/auth/session";
import { Problem, problemResponse } from "@/lib/contract/problem";
import { can, type Permission } from "@/lib/contract/roles";
import { env } from "@/lib/platform/env";
import { withRequestId } from "@/lib/platform/observability/request-id";
import { type RefusedAttempt, refusal } from "./refusal";

type Context<P> = { params: Promise<P> };
type Handler<P> = (input: { request: Request; params: P; user: SessionUser }) => Promise<unknown>;
/**
 * For a change whose refusal (the role lacks the permission) is itself worth an audit entry: what was
 * attempted, read as well as the request allows, or nothing when it names no target.
 */
type AuditRefusal<P> = (input: { request: Request; params: P }) => Promise<RefusedAttempt>;

/**
 * The one wrapper around every console API route: a signed-in person (401) with the second factor their role
 * needs (403 `second_factor_required`), whose role grants `permission`
 * (403 naming it), and for anything that changes state a same-origin request (403). Then the handler; its
 * result is answered as JSON (never cached: answers depend on who asks), any failure as a problem.
 */
export function bffRoute<P = Record<string, never>>(
  permission: Permission,
  handler: Handler<P>,
  options: { auditRefusal?: AuditRefusal<P> } = {},
) {
  return async (request: Request, context: Context<P>): Promise<Response> => {
    try {
      if (!["GET", "HEAD"].includes(request.method)) assertSameOrigin(request);
      const user = await sessionUser(request.headers);
      if (!user) throw unauthenticated();
      if (user.needsSecondFactor) throw secondFactorRequired();
      const params = await context.params;
      if (!can(user.role, permission)) {
        const { auditRefusal } = options;
        throw await refusal(user, permission, auditRefusal && (() => auditRefusal({ request, params })));
      }
      const body = await handler({ request, params, user });
      return body instanceof Response ? body : Response.json(body, { headers: { "cache-control": "private, no-store" } });
    } catch (error) {
      return withRequestId(problemResponse(error));
    }
  };
}

/**
 * A route anyone may call (health): the same answers and problems as `bffRoute`, with the person when there
 * is a valid session and null otherwise.
 */
export function publicRoute(handler: (input: { request: Request; user: SessionUser | null }) => Promise<unknown>) {
  return async (request: Request): Promise<Response> => {
    try {
      const body = await handler({ request, user: await sessionUser(request.headers) });
      return Response.json(body, { headers: { "cache-control": "private, no-store" } });
    } catch (error) {
      return withRequestId(problemResponse(error));
    }
  };
}

/**
 * A route anyone may call from the console's own pages, without a session (signing in again in place): the
 * same-origin rule of `bffRoute`, the same problems, and no session read, which would also clear an ended
 * session's cookie.
 */
export function signInRoute(handler: (input: { request: Request }) => Promise<object>) {
  return async (request: Request): Promise<Response> => {
    try {
      assertSameOrigin(request);
      const answer = await handler({ request });
      // Refused by the limits, not by the credentials: 429, and when to come back, for any client to read.
      const wait = "retryAfterSeconds" in answer && typeof answer.retryAfterSeconds === "number" ? answer.retryAfterSeconds : 0;
      return Response.json(answer, {
        status: wait ? 429 : 200,
        headers: { "cache-control": "private, no-store", ...(wait ? { "retry-after": String(wait) } : {}) },
      });
    } catch (error) {
      return withRequestId(problemResponse(error));
    }
  };
}

/**
 * A route for machines, with no session at all (the webhook inbox, which providers post to): the handler's
 * own Response, any failure as a problem. It reads no cookie, so a browser's session gives it nothing.
 */
export function machineRoute(handler: (input: { request: Request }) => Promise<Response>) {
  return async (request: Request): Promise<Response> => {
    try {
      return await handler({ request });
    } catch (error) {
      return withRequestId(problemResponse(error));
    }
  };
}

/** Cross-site request forgery: a browser always sends Origin (or Sec-Fetch-Site) with a state-changing request. */
function assertSameOrigin(request: Request): void {
  const origin = request.headers.get("origin");
  const site = request.headers.get("sec-fetch-site");
  // The Host header, not request.url: behind the server the latter may name another host. A forwarded host
  // is believed only from a proxy the operator trusts (TRUSTED_PROXIES); anyone else could have written it.
  const forwarded = env().trustedProxies > 0 ? request.headers.get("x-forwarded-host") : null;
  const host = forwarded ?? request.headers.get("host") ?? new URL(request.url).host;
  const sameOrigin = origin ? safeHost(origin) === host : site === null || site === "same-origin" || site === "none";
  if (!sameOrigin) {
    throw Problem.of("cross_site_request", {
      title: "Request from another site refused",
      detail: "Changes can only be made from the console's own pages.",
    });
  }
}

function safeHost(origin: string): string | null {
  try {
    return new URL(origin).host;
  } catch {
    return null;
  }
}
