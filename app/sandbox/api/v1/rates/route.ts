import { parseQuery } from "@/lib/platform/http-body";
import { methods } from "@/lib/platform/http-methods";
import { requireScope, sandboxRates, sandboxRoute } from "@/lib/sandbox";
import { ratesQuerySchema } from "@/lib/sandbox/wire-schemas";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: sandboxRoute(({ request, db, caller }) => {
    requireScope(caller, "rates:read");
    // A malformed `at` is a 422 naming /at, before the request is counted (as a missing scope is).
    return sandboxRates(db, caller, parseQuery(request, ratesQuerySchema));
  }),
});
