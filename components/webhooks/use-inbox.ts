"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { fetchInboxAfter, INBOX_POLL_MS, inboxKeys } from "@/lib/browser/query/webhooks";
import type { InboxList } from "@/lib/contract";

/** The webhook inbox, polled every second while the page is visible (one invoice's entries, or all). */
export function useInbox(invoiceId: string | null, initial?: InboxList) {
  const queryClient = useQueryClient();
  const key = inboxKeys.list(invoiceId);
  return useQuery({
    queryKey: key,
    queryFn: ({ signal }) => fetchInboxAfter(queryClient.getQueryData<InboxList>(key), invoiceId, signal),
    initialData: initial,
    refetchInterval: INBOX_POLL_MS,
    refetchOnWindowFocus: true,
  });
}
