import "server-only";
import { jsonNumber } from "@/lib/contract/money-json";
import type { Db } from "@/lib/platform/db";
import { env } from "@/lib/platform/env";
import { type Caller, requireScope } from "./keys";
import { marketMinuteStart, marketRates } from "./market";
import { consumeRateLimit, rateLimited } from "./rate-limit";
import { wireJson } from "./wire";
import type { RatesQuery } from "./wire-schemas";

/**
 * GET /rates: EUR per one unit of every sandbox currency from the simulated market (lib/sandbox/market.ts),
 * counted against the key's limit. Every answer, the 429 included, carries the limit's headers. Each rate is a
 * JSON number with exactly the market's digits (at most 8 places).
 *
 * With `at` (a sandbox extension, docs/sandbox.md "Rates"): the rates of that instant's UTC minute — what an invoice
 * created then is priced at — and `at`, the start of that minute. Counted like any other request; a malformed
 * `at` is a 422 from the route before it is counted.
 */
export async function sandboxRates(db: Db, caller: Caller, query: RatesQuery = {}, now: Date = new Date()): Promise<Response> {
  requireScope(caller, "rates:read");
  const verdict = await consumeRateLimit(db, caller.keyId, env().sandboxRatesLimit, now);
  if (!verdict.allowed) throw rateLimited(verdict);
  const minute = query.at ? marketMinuteStart(new Date(query.at)) : now;
  const rates = Object.fromEntries(Object.entries(marketRates(minute)).map(([code, rate]) => [code, jsonNumber(rate)]));
  const body = query.at ? { rates, at: minute.toISOString() } : { rates };
  return wireJson(body, { headers: { "cache-control": "no-store", ...verdict.headers } });
}
