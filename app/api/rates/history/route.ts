import { bffRoute } from "@/lib/bff/route";
import { parseQuery } from "@/lib/http-body";
import { methods } from "@/lib/http-methods";
import { rateMinute, ratesHistoryQuerySchema } from "@/lib/invoicing";
import { ratesHistory } from "@/lib/rates";

/**
 * GET /api/rates/history?at=… (README, "Rates in the console"): EUR per unit at the minute of `at`, as
 * `{rates, at}`; `at` is null when the provider answered its current rates instead (it does not know `at`).
 */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: bffRoute("invoices:read", async ({ request }) => ratesHistory().at(rateMinute(parseQuery(request, ratesHistoryQuerySchema).at))),
});
