"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { fetchInboxAfter, INBOX_POLL_MS, inboxKeys } from "@/lib/browser/query/webhooks";
import type { InboxFilter, InboxList } from "@/lib/contract";

/** The webhook inbox, polled every second while the page is visible (its filter's entries: an invoice's, some verdicts'). */
export function useInbox(filter: InboxFilter, initial?: InboxList) {
  const queryClient = useQueryClient();
  const key = inboxKeys.list(filter);
  return useQuery({
    queryKey: key,
    queryFn: ({ signal }) => fetchInboxAfter(queryClient.getQueryData<InboxList>(key), filter, signal),
    initialData: initial,
    refetchInterval: INBOX_POLL_MS,
    refetchOnWindowFocus: true,
  });
}
