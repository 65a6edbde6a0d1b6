"use client";

import { useQuery } from "@tanstack/react-query";
import { ratesOptions } from "@/lib/query/rates";

/** EUR per one unit of each currency, by code, as decimal strings. */
export type Rates = Record<string, string>;

/**
 * The archive form's live preview reads the console's cached rates (GET /api/rates, the same query as the
 * rates panel and the shell's strip); with none, the form says the provider derives the other amount.
 */
export function useRates(): Rates | null {
  return useQuery(ratesOptions()).data?.rates ?? null;
}
