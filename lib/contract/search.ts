import { z } from "zod";
import { decimalAmount } from "./invoice";

/** GET /api/search?q=: what a person typed into the search palette. */
export const searchQuerySchema = z.object({
  q: z
    .string()
    // Control characters are never part of an id or a name (and PostgreSQL's text cannot hold a NUL).
    .transform((value) => value.replace(/[\u0000-\u001f\u007f]+/g, " ").trim())
    .pipe(
      z
        .string()
        .min(1, { error: "type an order id, words of the order name, or an invoice id" })
        .max(200, { error: "must be at most 200 characters" }),
    ),
});
export type SearchQuery = z.output<typeof searchQuerySchema>;

/** Why a result matched, best first: the ranking the palette shows. */
export const SEARCH_MATCHES = ["order_id", "invoice_id", "order_id_prefix", "words"] as const;
export type SearchMatch = (typeof SEARCH_MATCHES)[number];

export const searchResultSchema = z.object({
  invoice_id: z.string(),
  order_id: z.string().nullable(),
  order_name: z.string().nullable(),
  status: z.string().nullable(),
  fiat_amount: z.union([z.null(), decimalAmount]),
  fiat_currency: z.string().nullable(),
  crypto_amount: z.union([z.null(), decimalAmount]),
  currency: z.string().nullable(),
  created_at: z.string().nullable(),
  updated_at: z.string().nullable(),
  match: z.enum(SEARCH_MATCHES),
});
export type SearchResult = z.infer<typeof searchResultSchema>;

/** How complete and how fresh the index is, so no answer is stale in silence. */
export const searchIndexStateSchema = z.object({
  /** filling: the first fill is under way (results may be missing); ready: every invoice was listed once. */
  state: z.enum(["filling", "ready"]),
  /** How many invoices the index holds (counted for admins; null in search answers, which skip the count). */
  indexed: z.number().int().nullable(),
  /** The next page the first fill reads (of the invoices after the last one read); null once it is done. */
  fill_page: z.number().int().nullable(),
  /** How many invoices the first fill has read. */
  fill_read: z.number().int(),
  /** The provider's total when the fill began; null until its first page. */
  fill_total: z.number().int().nullable(),
  fill_started_at: z.string().nullable(),
  fill_completed_at: z.string().nullable(),
  /** Every change before this instant is in the index; null before the first complete walk. */
  fresh_as_of: z.string().nullable(),
  age_seconds: z.number().int().nullable(),
  paused_reason: z.string().nullable(),
  paused_detail: z.string().nullable(),
  next_try_at: z.string(),
  upstream_calls: z.number().int(),
  /** The last incremental walk: its duration and its provider calls (null before the first). */
  last_walk_ms: z.number().int().nullable(),
  last_walk_calls: z.number().int().nullable(),
});
export type SearchIndexState = z.infer<typeof searchIndexStateSchema>;

export const searchAnswerSchema = z.object({ results: z.array(searchResultSchema), index: searchIndexStateSchema });
export type SearchAnswer = z.infer<typeof searchAnswerSchema>;
