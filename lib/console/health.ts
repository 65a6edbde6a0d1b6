import "server-only";
import { timingSafeEqual } from "node:crypto";
import { sql } from "drizzle-orm";
import type { SessionUser } from "@/lib/console/auth/session";
import { upstream } from "@/lib/console/upstream/client";
import { problemDetail, toProblem } from "@/lib/contract/problem";
import { can } from "@/lib/contract/roles";
import { getDatabase } from "@/lib/platform/db";
import { env } from "@/lib/platform/env";
import { isDraining } from "@/lib/platform/server-lifecycle";

type Check = { ok: true } | { ok: false; problem: string };

/**
 * The provider is asked at most this often, however many monitors poll: each ask spends its rate limit. A
 * failed check is repeated sooner, so that readiness comes back soon after the provider does.
 */
const UPSTREAM_CHECK_TTL_MS = 30_000;
const UPSTREAM_FAILED_CHECK_TTL_MS = 5_000;
let upstreamCheck: { at: number; ok?: boolean; result: Promise<Check & { checked_at: string }> } | undefined;

async function check(run: () => Promise<unknown>): Promise<Check> {
  try {
    await run();
    return { ok: true };
  } catch (error) {
    const p = toProblem(error);
    return { ok: false, problem: problemDetail(p) };
  }
}

function cachedUpstreamCheck() {
  const ttl = upstreamCheck?.ok === false ? UPSTREAM_FAILED_CHECK_TTL_MS : UPSTREAM_CHECK_TTL_MS;
  if (!upstreamCheck || Date.now() - upstreamCheck.at >= ttl) {
    const at = Date.now();
    const entry: NonNullable<typeof upstreamCheck> = {
      at,
      result: check(() => upstream().listCurrencies()).then((c) => {
        entry.ok = c.ok;
        return { ...c, checked_at: new Date(at).toISOString() };
      }),
    };
    upstreamCheck = entry;
  }
  return upstreamCheck.result;
}

const databaseCheck = () => check(async () => (await getDatabase()).execute(sql`select 1`));

/** A monitor with HEALTH_TOKEN, or a signed-in admin: the only ones told more than "up". */
function mayReadDetails(request: Request, user: SessionUser | null): boolean {
  if (user && can(user.role, "users:manage")) return true;
  return monitorToken(request);
}

/** Whether the request carries `Authorization: Bearer $HEALTH_TOKEN` (compared in constant time); never without one set. */
export function monitorToken(request: Request): boolean {
  const token = env().healthToken;
  const given = request.headers.get("authorization")?.match(/^Bearer (.+)$/)?.[1];
  if (!token || !given) return false;
  const [a, b] = [Buffer.from(given), Buffer.from(token)];
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * GET /api/health. Anyone learns only that the console is up (it answered). A monitor holding HEALTH_TOKEN,
 * or a signed-in admin, also gets the database's and the invoicing API's state; the API is asked at most once
 * per 30 s. Always 200 while the console runs; the body tells.
 */
export async function health({ request, user }: { request: Request; user: SessionUser | null }) {
  if (!mayReadDetails(request, user)) return { status: "ok" };
  const e = env();
  const [database, upstreamState] = await Promise.all([databaseCheck(), cachedUpstreamCheck()]);
  return {
    status: database.ok && upstreamState.ok ? "ok" : "degraded",
    database: { ...database, driver: e.databaseUrl ? "postgresql" : "pglite" },
    upstream: { ...upstreamState, embedded_sandbox: e.embeddedSandbox },
  };
}

/**
 * GET /api/health/ready, for a load balancer or an orchestrator: "this instance can serve people". 200 when its
 * database answers and it is not draining; 503 with Retry-After otherwise, as from the moment it received
 * SIGTERM. The invoicing API is not asked: a provider that is down is down for every instance alike, and taking
 * them all out would also take away sign-in, Users, the audit log and the inbox. Its state is in /api/health's
 * details (and in /api/metrics). Says which part is down, never where it is.
 */
export async function readiness(): Promise<Response> {
  const database = await databaseCheck();
  const draining = isDraining();
  const ready = database.ok && !draining;
  const body = {
    status: ready ? "ready" : "not_ready",
    database: database.ok ? "ok" : "unreachable",
    ...(draining ? { shutting_down: true } : {}),
  };
  return Response.json(body, {
    status: ready ? 200 : 503,
    headers: { "cache-control": "no-store", ...(ready ? {} : { "retry-after": "5" }) },
  });
}
