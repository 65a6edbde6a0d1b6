import "server-only";
import { upstream } from "@/lib/console/upstream/client";
import type { RatesView } from "@/lib/contract";
import { getDatabase } from "@/lib/platform/db";
import { env } from "@/lib/platform/env";
import { createRatesCache, type RatesCache } from "./cache";
import { createRatesHistory, type RatesHistory } from "./history";
import { createLookupBudget, type LookupBudget } from "./lookup-budget";

// On globalThis: Next.js may load this module in several bundles, and one process must share one cache
// (one in-flight promise) whichever bundle asks.
const holder = globalThis as typeof globalThis & { __invoiceConsoleRates?: RatesCache };

/** The console's rates cache over the configured upstream (RATES_TTL_SECONDS). */
export function ratesCache(): RatesCache {
  const e = env();
  return (holder.__invoiceConsoleRates ??= createRatesCache({
    db: getDatabase,
    fetchRates: () => upstream().getRates(),
    ttlSeconds: e.ratesTtlSeconds,
    leaseMs: e.upstreamTimeoutMs + 5_000,
  }));
}

/** The current rates for a server component, or null when there are none (the page shows the rest). */
export async function currentRates(): Promise<RatesView | null> {
  return ratesCache()
    .get()
    .catch(() => null);
}

const historyHolder = globalThis as typeof globalThis & { __invoiceConsoleRatesHistory?: RatesHistory };

/** Historical rates over the configured upstream, one LRU per process (./history.ts). */
export function ratesHistory(): RatesHistory {
  return (historyHolder.__invoiceConsoleRatesHistory ??= createRatesHistory({
    fetchAt: (minute) => upstream().getRatesAt(minute),
    current: () => ratesCache().get(),
  }));
}

const budgetHolder = globalThis as typeof globalThis & { __invoiceConsoleRatesBudget?: LookupBudget };

/** One budget of past-rates lookups per process (RATES_HISTORY_PER_PERSON, RATES_HISTORY_PER_MINUTE). */
export function ratesLookupBudget(): LookupBudget {
  return (budgetHolder.__invoiceConsoleRatesBudget ??= createLookupBudget(env().ratesHistoryBudget));
}
