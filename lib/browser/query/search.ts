import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { fetchJson } from "./fetch-json";

export const searchKeys = { query: (q: string) => ["search", q] as const };

/** GET /api/search: always asked afresh (the index changes under it), the last answer shown meanwhile. */
export function searchOptions(q: string) {
  return queryOptions({
    queryKey: searchKeys.query(q),
    queryFn: ({ signal }) => fetchJson(`/api/search?${new URLSearchParams({ q })}`, (c) => c.searchAnswerSchema, { signal }),
    enabled: q.trim().length > 0,
    staleTime: 0,
    gcTime: 30_000,
    retry: false,
    placeholderData: keepPreviousData,
  });
}
