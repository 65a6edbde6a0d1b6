"use client";

import { useQuery } from "@tanstack/react-query";
import { historicalRatesOptions, ratesOptions } from "@/lib/browser/query/rates";
import { useDebounced } from "@/lib/browser/use-debounced";
import { archivedCreatedAtSchema, rateMinute } from "@/lib/contract";
import { Problem, problemDetail } from "@/lib/contract/problem";

/** EUR per one unit of each currency, by code, as decimal strings. */
export type Rates = Record<string, string>;

/**
 * The archive form's live preview reads the console's cached rates (GET /api/rates, the same query as the
 * rates panel and the shell's strip); with none, the form says the provider derives the other amount.
 */
export function useRates(): Rates | null {
  return useQuery(ratesOptions()).data?.rates ?? null;
}

/**
 * The rate the preview may show for an invoice created at `createdAt`, and what it is:
 * - `current`: no creation date (recorded as now): the console's cached current rates;
 * - `historical`: the provider's rates of that minute, `at` being the minute it priced;
 * - `provider-current`: the provider ignored the date and answered its current rates (it records a back-dated
 *   invoice at its own rate);
 * - `waiting` while the person types or the answer is on its way, `invalid` while the date cannot be sent,
 *   `failed` with why, `none` when there are no rates at all. None of these shows a number: a rate is shown
 *   only for the date it belongs to.
 */
export type PreviewRates =
  | { kind: "current"; rates: Rates }
  | { kind: "historical"; rates: Rates; at: string }
  | { kind: "provider-current"; rates: Rates }
  | { kind: "waiting"; minute: string | null }
  | { kind: "invalid" }
  | { kind: "failed"; minute: string; detail: string }
  | { kind: "none" };

/** How long the date must stay unchanged before its rates are asked for. */
const DEBOUNCE_MS = 400;

/** `createdAt`: undefined when the form has no creation date (recorded as now), else what the form would send. */
export function usePreviewRates(createdAt: string | undefined): PreviewRates {
  const current = useRates();
  // Only a creation date the contract accepts is asked about (from 2000, not in the future).
  const checked = createdAt === undefined ? null : archivedCreatedAtSchema.safeParse(createdAt);
  const minute = checked?.success ? rateMinute(checked.data) : null;
  const settled = useDebounced(minute, DEBOUNCE_MS);
  const history = useQuery({ ...historicalRatesOptions(settled ?? ""), enabled: settled !== null && settled === minute });

  if (createdAt === undefined) return current ? { kind: "current", rates: current } : { kind: "none" };
  if (!minute) return { kind: "invalid" };
  if (settled !== minute || history.isPending) return { kind: "waiting", minute };
  if (history.isError) {
    const problem = history.error instanceof Problem ? history.error : null;
    return { kind: "failed", minute, detail: problem ? problemDetail(problem) : "the console could not be reached" };
  }
  const data = history.data!;
  return data.at ? { kind: "historical", rates: data.rates, at: data.at } : { kind: "provider-current", rates: data.rates };
}
