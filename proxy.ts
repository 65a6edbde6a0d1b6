import { getSessionCookie } from "better-auth/cookies";
import { type NextRequest, NextResponse } from "next/server";

import { COOKIE_PREFIX, isPublicPage, REQUESTED_PATH_HEADER } from "@/lib/console/auth/constants";

/**
 * Runs before every request: a per-request nonce for the Content-Security-Policy, and an early trip to the
 * sign-in page for pages requested without a session cookie. The cookie is only checked for presence here;
 * pages and API routes verify the session itself.
 */
export async function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  if (pathname === "/")
    return withSecurityHeaders(NextResponse.redirect(new URL("/overview", request.url)), contentSecurityPolicy(nonce()));
  // The app shows no images: Next.js's image optimiser would only answer odd URLs with a 500.
  if (pathname.startsWith("/_next/image"))
    return withSecurityHeaders(
      problem(404, "not_found", "Not found", "This console serves no images here."),
      contentSecurityPolicy(nonce()),
    );
  const isApi = pathname.startsWith("/api/") || pathname.startsWith("/sandbox/");
  const refused = !isApi && request.method === "POST" ? await refusedPagePost(request) : null;
  if (refused) return withSecurityHeaders(refused, contentSecurityPolicy(nonce()));
  const isPage = !isApi && !isPublicPage(pathname);
  // A POST to a page is a server action: its guard answers a missing session itself (a 401 the page's
  // sign-in-again dialog takes, or, without script, the sign-in page with the draft kept). Sent to /login from
  // here, the change would be lost with what was typed.
  if (isPage && request.method !== "POST" && !getSessionCookie(request, { cookiePrefix: COOKIE_PREFIX })) {
    const login = new URL("/login", request.url);
    login.searchParams.set("next", pathname + search);
    // Asked from a console page the person had open (the router's navigation or a link: a same-origin referrer
    // other than the sign-in page), their session ended mid-work, and the sign-in page says so.
    if (cameFromConsolePage(request)) login.searchParams.set("ended", "1");
    return withSecurityHeaders(NextResponse.redirect(login), contentSecurityPolicy(nonce()));
  }

  const csp = contentSecurityPolicy(nonce());
  const requestHeaders = new Headers(request.headers);
  // Next.js reads the nonce from the request's CSP header and puts it on the scripts it renders.
  requestHeaders.set("content-security-policy", csp);
  requestHeaders.set(REQUESTED_PATH_HEADER, pathname + search);
  return withSecurityHeaders(NextResponse.next({ request: { headers: requestHeaders } }), csp);
}

/**
 * Pages only. API routes (`/api/…`, `/sandbox/…`) need neither a nonce nor the sign-in redirect: they check the
 * session themselves, and scripts/server/server.mjs gives their answers the security headers (a CSP of
 * `default-src 'none'`). Skipping them saves the proxy's run on every API request.
 */
export const config = {
  matcher: ["/((?!_next/static|api/|sandbox/|icon.svg|favicon.ico|robots.txt|apple-touch-icon.png).*)"],
};

/** Next.js's own limit on a server action's body (`serverActions.bodySizeLimit`). */
const ACTION_BODY_LIMIT = 1024 * 1024;

/**
 * A POST to a page is a server action: from the browser's script (a `Next-Action` header, a JSON or
 * multipart body) or from a form without script (multipart). Next.js answers one from another site, one over
 * its size limit and one whose body it cannot parse with a bare 500; these are refused here for what they
 * are. The actions themselves still check the session and the permission (lib/console/bff/action.ts).
 */
async function refusedPagePost(request: NextRequest): Promise<NextResponse | null> {
  if (!isSameOrigin(request)) {
    return problem(
      403,
      "cross_site_request",
      "Request from another site refused",
      "Changes can only be made from the console's own pages.",
    );
  }
  const body = await request.clone().arrayBuffer();
  if (body.byteLength > ACTION_BODY_LIMIT) return problem(413, "body_too_large", "The form is too large", "A form may send at most 1 MB.");
  const type = request.headers.get("content-type")?.toLowerCase() ?? "";
  try {
    if (type.startsWith("multipart/form-data")) await request.clone().formData();
    else if (request.headers.has("next-action")) JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(body));
    return null;
  } catch {
    return problem(
      400,
      "invalid_body",
      "The form cannot be read",
      "The body is not a form the console sent. Send the form from the console's own page.",
    );
  }
}

/**
 * The rule of lib/console/bff/route.ts for API routes: a browser names the page a change comes from in Origin (or at
 * least Sec-Fetch-Site). The host is the one scripts/server/server.mjs let through: forwarded only from a trusted
 * proxy, else the Host header.
 */
function isSameOrigin(request: NextRequest): boolean {
  const origin = request.headers.get("origin");
  const site = request.headers.get("sec-fetch-site");
  const host = request.headers.get("x-forwarded-host") ?? request.headers.get("host");
  if (origin) {
    try {
      return new URL(origin).host === host;
    } catch {
      return false;
    }
  }
  return site === null || site === "same-origin" || site === "none";
}

function problem(status: number, code: string, title: string, detail: string): NextResponse {
  return NextResponse.json(
    { type: `urn:invoice-console:problem:${code}`, title, status, detail, code },
    { status, headers: { "content-type": "application/problem+json", "cache-control": "no-store" } },
  );
}

function nonce(): string {
  return Buffer.from(crypto.randomUUID()).toString("base64");
}

function contentSecurityPolicy(nonceValue: string): string {
  const dev = process.env.NODE_ENV === "development";
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonceValue}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

function withSecurityHeaders(response: NextResponse, csp: string): NextResponse {
  response.headers.set("content-security-policy", csp);
  response.headers.set("x-content-type-options", "nosniff");
  response.headers.set("referrer-policy", "strict-origin-when-cross-origin");
  response.headers.set("x-frame-options", "DENY");
  response.headers.set("permissions-policy", "camera=(), microphone=(), geolocation=()");
  return response;
}

function cameFromConsolePage(request: NextRequest): boolean {
  const referrer = request.headers.get("referer");
  if (!referrer) return false;
  try {
    const from = new URL(referrer);
    return from.origin === request.nextUrl.origin && from.pathname !== "/login" && from.pathname !== "/";
  } catch {
    return false;
  }
}
