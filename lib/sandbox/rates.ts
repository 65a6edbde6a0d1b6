import "server-only";
import type { Db } from "@/lib/db";
import { env } from "@/lib/env";
import { requireScope, type Caller } from "./keys";
import { marketRates } from "./market";
import { consumeRateLimit, rateLimited } from "./rate-limit";

/**
 * GET /rates: EUR per one unit of every sandbox currency from the simulated market (lib/sandbox/market.ts),
 * counted against the key's limit. Every answer, the 429 included, carries the limit's headers.
 */
export async function sandboxRates(db: Db, caller: Caller, now: Date = new Date()): Promise<Response> {
  requireScope(caller, "rates:read");
  const verdict = await consumeRateLimit(db, caller.keyId, env().sandboxRatesLimit, now);
  if (!verdict.allowed) throw rateLimited(verdict);
  return Response.json({ rates: marketRates(now) }, { headers: { "cache-control": "no-store", ...verdict.headers } });
}
