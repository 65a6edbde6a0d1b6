import { queryOptions } from "@tanstack/react-query";
import { fetchJson } from "@/lib/browser/query/fetch-json";
import { RECORDED_CHECK_MAX } from "@/lib/contract/archived-check";

/**
 * Which of a file's order ids are already recorded, asked of the console (GET /api/archived) before anything is
 * sent, a hundred at a time. The provider stays the judge when a row is sent; this is what the preview says.
 */
export function recordedOrderIdsOptions(orderIds: readonly string[]) {
  const ids = [...new Set(orderIds)].sort();
  return queryOptions({
    queryKey: ["archived-recorded", ids] as const,
    enabled: ids.length > 0,
    staleTime: 0,
    queryFn: async ({ signal }) => {
      const recorded = new Set<string>();
      for (let i = 0; i < ids.length; i += RECORDED_CHECK_MAX) {
        const params = new URLSearchParams(ids.slice(i, i + RECORDED_CHECK_MAX).map((id) => ["order_id", id]));
        const answer = await fetchJson(`/api/archived?${params}`, (c) => c.recordedCheckSchema, { signal });
        for (const id of answer.recorded) recorded.add(id);
      }
      return recorded;
    },
  });
}
