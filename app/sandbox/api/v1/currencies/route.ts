import { methods } from "@/lib/platform/http-methods";
import { SANDBOX_CURRENCIES, sandboxRoute } from "@/lib/sandbox";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: sandboxRoute(async () => ({
    currencies: SANDBOX_CURRENCIES.map(({ code, name, network, decimals }) => ({ code, name, network, decimals })),
  })),
});
