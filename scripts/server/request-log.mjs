// One JSON line per request (LOG_FORMAT=json), named by the app's route pattern, never the path itself.
import { readFileSync } from "node:fs";
import path from "node:path";

/**
 * LOG_FORMAT=json: one line per request, written when its answer is complete (or the client gave up: status
 * then says what was being sent, and `aborted` is true). The route is the app's pattern (`/api/invoices/[id]`),
 * never the path itself, which may hold ids and queries.
 */
export function logRequest(logger, req, res, { started, record, route, internal }) {
  const line = {
    method: req.method,
    route,
    status: res.statusCode,
    duration_ms: Math.round((performance.now() - started) * 10) / 10,
    upstream_calls: record.upstreamCalls,
    request_id: record.requestId,
  };
  // A client that goes away is not an error of ours: info, with `aborted`.
  if (!res.writableFinished) line.aborted = true;
  if (internal) line.internal = true;
  logger[res.statusCode >= 500 && !line.aborted ? "error" : "info"](line, "request");
}

/** Path → the route pattern that serves it, from the build's routes manifest. */
export function routeMatcher(root) {
  let manifest = { staticRoutes: [], dynamicRoutes: [] };
  try {
    manifest = JSON.parse(readFileSync(path.join(root, ".next", "routes-manifest.json"), "utf8"));
  } catch {
    // No manifest: routes are logged as null.
  }
  const statics = new Set(manifest.staticRoutes.map((route) => route.page));
  const dynamics = manifest.dynamicRoutes.map((route) => ({ page: route.page, regex: new RegExp(route.regex) }));
  return (pathname) => {
    if (pathname.startsWith("/_next/")) return pathname.startsWith("/_next/static/") ? "/_next/static" : "/_next";
    const trimmed = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
    if (statics.has(trimmed)) return trimmed;
    return dynamics.find((route) => route.regex.test(pathname))?.page ?? null;
  };
}
