import { z } from "zod";
import { archivedCreatedAtSchema } from "./archived-request";
import { decimalAmount } from "./invoice";

/** EUR per one unit of each currency, by upper-case code (spec §4.6). */
export const ratesSchema = z.object({ rates: z.record(z.string(), decimalAmount) });

/**
 * The console's cached rates (GET /api/rates): the last good values, the ones before them, how old they are,
 * and — when the last attempt failed — why, and when the console will ask the provider again.
 */
export const ratesViewSchema = z.object({
  rates: z.record(z.string(), decimalAmount),
  previous_rates: z.record(z.string(), decimalAmount).nullable(),
  fetched_at: z.string(),
  previous_fetched_at: z.string().nullable(),
  /** Whole seconds since the values were fetched, when this answer was made. */
  age_seconds: z.number().int().min(0),
  stale: z.boolean(),
  /** `rate_limited` (the provider answered 429) or `upstream_error`; null when fresh. */
  stale_reason: z.enum(["rate_limited", "upstream_error"]).nullable(),
  stale_detail: z.string().nullable(),
  /** When the console will next ask the provider (never before the provider's Retry-After). */
  next_try_at: z.string(),
  /** Seconds until then, when this answer was made. */
  retry_in_seconds: z.number().int().min(0),
});

/**
 * GET /api/rates/history?at=… (the console's route; docs/user-guide.md, "Rates in the console"): the instant whose rates
 * are wanted, as the archive form's created_at is written — a date (midnight UTC) or a date-time with an
 * offset, from 2000-01-01, not in the future.
 */
export const ratesHistoryQuerySchema = z.object({
  at: archivedCreatedAtSchema,
});

/** The UTC minute an instant falls in, as an ISO string ("2025-03-01T14:03:00.000Z"): the rates' unit of time. */
export function rateMinute(instant: string | Date): string {
  const time = new Date(instant).getTime();
  return new Date(time - (((time % 60_000) + 60_000) % 60_000)).toISOString();
}

/**
 * Its answer: EUR per one unit of each currency at `at`, the minute the provider priced (UTC ISO). `at` is
 * null when the provider did not honour the question (the spec's GET /rates knows no `at`): then `rates` are
 * its current ones, and must be shown as such.
 */
export const historicalRatesSchema = z.object({
  rates: z.record(z.string(), decimalAmount),
  at: z.string().nullable(),
});
export type HistoricalRates = z.infer<typeof historicalRatesSchema>;
export type Rates = z.infer<typeof ratesSchema>;
export type RatesView = z.infer<typeof ratesViewSchema>;
