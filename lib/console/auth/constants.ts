/** Names shared by proxy.ts (which must stay light) and lib/console/auth. */
export const COOKIE_PREFIX = "invoice-console";
/** Header proxy.ts sets on every page request: the path and query the person asked for. */
export const REQUESTED_PATH_HEADER = "x-invoice-console-path";
/** Pages that open without a session: signing in, and choosing a password from a one-time link. */
export const isPublicPage = (pathname: string) => pathname === "/login" || /^\/(invite|reset)\/[^/]*$/.test(pathname);
