import { bffRoute } from "@/lib/console/bff/route";
import { ratesHistory } from "@/lib/console/rates";
import { rateMinute, ratesHistoryQuerySchema } from "@/lib/contract";
import { parseQuery } from "@/lib/platform/http-body";
import { methods } from "@/lib/platform/http-methods";

/**
 * GET /api/rates/history?at=… (README, "Rates in the console"): EUR per unit at the minute of `at`, as
 * `{rates, at}`; `at` is null when the provider answered its current rates instead (it does not know `at`).
 */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: bffRoute("invoices:read", async ({ request }) => ratesHistory().at(rateMinute(parseQuery(request, ratesHistoryQuerySchema).at))),
});
