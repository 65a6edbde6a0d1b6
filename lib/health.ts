import "server-only";
import { timingSafeEqual } from "node:crypto";
import { sql } from "drizzle-orm";
import { can } from "@/lib/auth/roles";
import type { SessionUser } from "@/lib/auth/session";
import { getDatabase } from "@/lib/db";
import { env } from "@/lib/env";
import { toProblem } from "@/lib/problem";
import { upstream } from "@/lib/upstream/client";

type Check = { ok: true } | { ok: false; problem: string };

/** The provider is asked at most this often, however many monitors poll: each ask spends its rate limit. */
const UPSTREAM_CHECK_TTL_MS = 30_000;
let upstreamCheck: { at: number; result: Promise<Check & { checked_at: string }> } | undefined;

async function check(run: () => Promise<unknown>): Promise<Check> {
  try {
    await run();
    return { ok: true };
  } catch (error) {
    const p = toProblem(error);
    return { ok: false, problem: p.detail ?? p.title };
  }
}

function cachedUpstreamCheck() {
  if (!upstreamCheck || Date.now() - upstreamCheck.at >= UPSTREAM_CHECK_TTL_MS) {
    const at = Date.now();
    upstreamCheck = { at, result: check(() => upstream().listCurrencies()).then((c) => ({ ...c, checked_at: new Date(at).toISOString() })) };
  }
  return upstreamCheck.result;
}

/** A monitor with HEALTH_TOKEN, or a signed-in admin: the only ones told more than "up". */
function mayReadDetails(request: Request, user: SessionUser | null): boolean {
  if (user && can(user.role, "users:manage")) return true;
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
  const [database, upstreamState] = await Promise.all([check(async () => (await getDatabase()).execute(sql`select 1`)), cachedUpstreamCheck()]);
  return {
    status: database.ok && upstreamState.ok ? "ok" : "degraded",
    database: { ...database, driver: e.databaseUrl ? "postgresql" : "pglite" },
    upstream: { ...upstreamState, embedded_sandbox: e.embeddedSandbox },
  };
}
