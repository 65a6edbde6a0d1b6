import { queryOptions } from "@tanstack/react-query";
import type { InboxFilter, InboxList, RedeliverJob } from "@/lib/contract";
import { Problem } from "@/lib/contract/problem";
import { fetchJson } from "./fetch-json";

/** How often the webhooks page asks for new inbox entries: a delivery shows within about a second. */
export const INBOX_POLL_MS = 1_000;
/** Entries the page keeps on screen. */
export const INBOX_SHOWN = 50;

export const inboxKeys = {
  all: ["webhook-inbox"] as const,
  list: (filter: InboxFilter) => [...inboxKeys.all, filter.invoiceId ?? "all", filter.verdicts.join(",") || "any"] as const,
};

/**
 * The inbox after what is already on screen: the first call reads the newest entries, each later one only
 * those after the cursor (so a poll is cheap), merged newest first. The database is the source, so every
 * console instance sees what any of them received.
 */
export async function fetchInboxAfter(previous: InboxList | undefined, filter: InboxFilter, signal?: AbortSignal): Promise<InboxList> {
  const params = new URLSearchParams({ limit: String(INBOX_SHOWN) });
  if (previous) params.set("since", String(previous.cursor));
  if (filter.invoiceId) params.set("invoice_id", filter.invoiceId);
  if (filter.verdicts.length) params.set("verdict", filter.verdicts.join(","));
  const next = await fetchJson(`/api/webhook-inbox?${params}`, (c) => c.inboxListSchema, { signal });
  if (!previous) return next;
  if (next.entries.length === 0) return previous;
  return { entries: [...next.entries, ...previous.entries].slice(0, INBOX_SHOWN), cursor: Math.max(previous.cursor, next.cursor) };
}

const isGone = (error: unknown) => error instanceof Problem && [401, 403, 404].includes(error.status);

/** How often a resend job under way is read again (one delivery is one attempt, at most 10 s). */
const RESEND_JOB_POLL_MS = 1_500;

/**
 * A resend job, followed until it ends: the console's own record of it, so following it spends nothing of the
 * provider's budget (the deliveries page itself lists from the provider).
 */
export function redeliverJobOptions(job: RedeliverJob) {
  return queryOptions({
    queryKey: ["resend-jobs", job.id] as const,
    queryFn: ({ signal }) =>
      fetchJson(`/api/webhook-deliveries/resend-jobs/${encodeURIComponent(job.id)}`, (c) => c.redeliverJobSchema, { signal }),
    initialData: job,
    // Until it ends, or until the console says it is gone or no longer this person's to follow.
    refetchInterval: (query) => (query.state.data?.finished_at || isGone(query.state.error) ? false : RESEND_JOB_POLL_MS),
  });
}
