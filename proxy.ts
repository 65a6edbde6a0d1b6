import { getSessionCookie } from "better-auth/cookies";
import { NextResponse, type NextRequest } from "next/server";

import { COOKIE_PREFIX, REQUESTED_PATH_HEADER } from "@/lib/auth/constants";

/**
 * Runs before every request: a per-request nonce for the Content-Security-Policy, and an early trip to the
 * sign-in page for pages requested without a session cookie. The cookie is only checked for presence here;
 * pages and API routes verify the session itself.
 */
export async function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  if (pathname === "/") return withSecurityHeaders(NextResponse.redirect(new URL("/invoices", request.url)), contentSecurityPolicy(nonce()));
  const isApi = pathname.startsWith("/api/") || pathname.startsWith("/sandbox/");
  if (!isApi && (await isUnreadableFormPost(request))) {
    return withSecurityHeaders(unreadableForm(), contentSecurityPolicy(nonce()));
  }
  const isPage = !isApi && pathname !== "/login";
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

/**
 * A form posted to a page without script (a server action's progressive enhancement) is multipart; Next.js
 * answers one it cannot parse with a bare 500. Read a copy here and refuse it as what it is, a bad request.
 */
async function isUnreadableFormPost(request: NextRequest): Promise<boolean> {
  if (request.method !== "POST" || request.headers.has("next-action")) return false;
  if (!request.headers.get("content-type")?.toLowerCase().startsWith("multipart/form-data")) return false;
  try {
    await request.clone().formData();
    return false;
  } catch {
    return true;
  }
}

function unreadableForm(): NextResponse {
  return NextResponse.json(
    { type: "urn:invoice-console:problem:invalid_body", title: "The form cannot be read", status: 400, detail: "The body is not a valid multipart form. Send the form from the console's own page.", code: "invalid_body" },
    { status: 400, headers: { "content-type": "application/problem+json", "cache-control": "no-store" } },
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
