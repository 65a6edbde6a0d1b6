import { getSessionCookie } from "better-auth/cookies";
import { NextResponse, type NextRequest } from "next/server";

import { COOKIE_PREFIX, REQUESTED_PATH_HEADER } from "@/lib/auth/constants";

/**
 * Runs before every request: a per-request nonce for the Content-Security-Policy, and an early trip to the
 * sign-in page for pages requested without a session cookie. The cookie is only checked for presence here;
 * pages and API routes verify the session itself.
 */
export function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  if (pathname === "/") return withSecurityHeaders(NextResponse.redirect(new URL("/invoices", request.url)), contentSecurityPolicy(nonce()));
  const isPage = !pathname.startsWith("/api/") && !pathname.startsWith("/sandbox/") && pathname !== "/login";
  if (isPage && !getSessionCookie(request, { cookiePrefix: COOKIE_PREFIX })) {
    const login = new URL("/login", request.url);
    login.searchParams.set("next", pathname + search);
    return withSecurityHeaders(NextResponse.redirect(login), contentSecurityPolicy(nonce()));
  }

  const csp = contentSecurityPolicy(nonce());
  const requestHeaders = new Headers(request.headers);
  // Next.js reads the nonce from the request's CSP header and puts it on the scripts it renders.
  requestHeaders.set("content-security-policy", csp);
  requestHeaders.set(REQUESTED_PATH_HEADER, pathname + search);
  return withSecurityHeaders(NextResponse.next({ request: { headers: requestHeaders } }), csp);
}

export const config = {
  matcher: ["/((?!_next/static|_next/image|icon.svg|favicon.ico).*)"],
};

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
