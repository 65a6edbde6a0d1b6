import "server-only";
import { forbidden, unauthenticated } from "@/lib/console/auth/errors";
import { sessionUser } from "@/lib/console/auth/session";
import { monitorToken } from "@/lib/console/health";
import { can } from "@/lib/contract/roles";
import { metricsRegistry } from "@/lib/platform/observability/metrics";

/**
 * GET /api/metrics: this process's metrics in Prometheus's text format, for a scrape with
 * `Authorization: Bearer $HEALTH_TOKEN`, or for a signed-in admin. Anyone else gets a 401 problem (no token, no
 * session) or a 403 (a session whose role may not manage users), before any metric is read.
 */
export async function metrics({ request }: { request: Request }): Promise<Response> {
  if (!monitorToken(request)) {
    const user = await sessionUser(request.headers);
    if (!user) throw unauthenticated();
    if (!can(user.role, "users:manage")) throw forbidden("users:manage", user);
  }
  const registry = metricsRegistry();
  return new Response(await registry.metrics(), {
    headers: { "content-type": registry.contentType, "cache-control": "no-store" },
  });
}
