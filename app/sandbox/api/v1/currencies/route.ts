import { SANDBOX_CURRENCIES, sandboxRoute } from "@/lib/sandbox";

export const GET = sandboxRoute(async () => ({
  currencies: SANDBOX_CURRENCIES.map(({ code, name, network, decimals }) => ({ code, name, network, decimals })),
}));
