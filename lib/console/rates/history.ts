import "server-only";
import type { HistoricalRates, Rates } from "@/lib/contract";

/*
 * Historical rates for the archive form's preview (README, "Rates in the console"). A minute's rates never
 * change once it has passed, so an answer the provider priced at a minute is kept, in a small LRU bounded by
 * entries and keyed by the minute asked. An answer without `at` (a provider that ignores the question) is
 * its current rates: never kept as a minute's, passed on with `at: null`; and for a while after one, the
 * provider is not asked again with `at` — the console's shared rates cache answers instead, so a form being
 * typed into costs no GET /rates of its own against such a provider.
 */

export type RatesHistoryOptions = {
  /** GET /rates?at=<minute> upstream. */
  fetchAt: (minute: string) => Promise<HistoricalRates>;
  /** The current rates (the console's shared rates cache). */
  current: () => Promise<Rates>;
  /** Minutes kept (default 500: a few hundred small objects). */
  maxEntries?: number;
  /** How long a provider that ignored `at` is not asked with it again (default 10 minutes). */
  ignoredForMs?: number;
  now?: () => number;
};

export function createRatesHistory(options: RatesHistoryOptions) {
  const maxEntries = options.maxEntries ?? 500;
  const ignoredForMs = options.ignoredForMs ?? 10 * 60_000;
  const now = options.now ?? Date.now;
  const kept = new Map<string, HistoricalRates>();
  let ignoresAtUntil = 0;

  return {
    /**
     * The rates of `minute` (a UTC minute, rateMinute()), or the current ones with `at: null`. `beforeAsking` runs
     * only when the provider is to be asked (a budget that may refuse); what is kept costs nothing.
     */
    async at(minute: string, beforeAsking?: () => void): Promise<HistoricalRates> {
      const hit = kept.get(minute);
      if (hit) {
        // Most recently used goes last; the first key is the one to drop.
        kept.delete(minute);
        kept.set(minute, hit);
        return hit;
      }
      if (now() < ignoresAtUntil) return { rates: (await options.current()).rates, at: null };
      beforeAsking?.();
      const answer = await options.fetchAt(minute);
      if (answer.at === null) {
        ignoresAtUntil = now() + ignoredForMs;
        return answer;
      }
      kept.set(minute, answer);
      while (kept.size > maxEntries) kept.delete(kept.keys().next().value!);
      return answer;
    },
    /** Minutes kept now (for tests and health). */
    size: () => kept.size,
  };
}

export type RatesHistory = ReturnType<typeof createRatesHistory>;
