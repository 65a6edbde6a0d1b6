// The contract's plain values and helpers, without zod: the browser's first load needs these (the table's
// sort, the URL parsers) but none of the schemas, which it loads when it first reads an answer
// (lib/browser/query/fetch-json.ts). ./list-query-schema.ts builds its rules from these; the barrel exports both.

export const SORT_FIELDS = ["created_at", "updated_at", "fiat_amount", "crypto_amount"] as const;
export type SortField = (typeof SORT_FIELDS)[number];
export const SORT_ORDERS = ["asc", "desc"] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

export const PAGE_SIZE_DEFAULT = 20;
export const PAGE_SIZE_MAX = 100;

/**
 * A currency code as a provider may spell it (BTC, usdt, USDT.TRC20, USDC:ETH): passed on as given, since
 * the provider decides what its codes and their case are.
 */
export const CURRENCY_CODE = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,31}$/;

/** The longest text query of a view (`q`). */
export const VIEW_QUERY_MAX = 200;

/** The first and the last instant the API reads: the years 0001 to 9999, in UTC. */
export const FIRST_API_INSTANT = Date.parse("0001-01-01T00:00:00.000Z");
export const LAST_API_INSTANT = Date.parse("9999-12-31T23:59:59.999Z");

/** Whether an ISO instant falls in the years the API reads (0001 to 9999, four digits). */
export function withinApiYears(iso: string): boolean {
  return /^\d{4}-/.test(iso) && !iso.startsWith("0000-");
}

/** The longest reason a status change may carry. */
export const REASON_MAX = 500;

/** "pending, paid_partial,,pending" → ["pending", "paid_partial"]: how every comma-separated value is read (statuses, ids). */
export function commaList(value: string): string[] {
  return [...new Set(value.split(",").map((item) => item.trim()))].filter(Boolean);
}

/** Turns URLSearchParams into the plain object the query schema reads; blank values count as absent. */
export function searchParamsToObject(params: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of params) if (value.trim() !== "" && !(key in out)) out[key] = value;
  return out;
}

/** The query string for a list query or a view: every parameter that has a value, a list joined by commas. */
export function invoiceListQueryToSearchParams(query: {
  readonly [key: string]: string | number | readonly string[] | null | undefined;
}): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    const text = Array.isArray(value) ? value.join(",") : value;
    if (text !== undefined && text !== null && text !== "") params.set(key, String(text));
  }
  return params;
}
