import { bffRoute } from "@/lib/console/bff/route";
import { ratesHistory, ratesLookupBudget } from "@/lib/console/rates";
import { rateMinute, ratesHistoryQuerySchema } from "@/lib/contract";
import { parseQuery } from "@/lib/platform/http-body";
import { methods } from "@/lib/platform/http-methods";

/**
 * GET /api/rates/history?at=… (docs/user-guide.md, "Rates in the console"): EUR per unit at the minute of `at`, as
 * `{rates, at}`; `at` is null when the provider answered its current rates instead (it does not know `at`). A
 * minute not asked before counts against the person's and everyone's lookups (429 with Retry-After beyond them).
 */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: bffRoute("invoices:read", async ({ request, user }) =>
    ratesHistory().at(rateMinute(parseQuery(request, ratesHistoryQuerySchema).at), () => ratesLookupBudget().take(user.id)),
  ),
});
