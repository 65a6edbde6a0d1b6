"use client";

import { type DehydratedState, HydrationBoundary, hydrate, useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useMemo } from "react";

/**
 * TanStack's HydrationBoundary, for data a page fetched on the server and drew into its HTML, made safe for a
 * page that hydrates after its shell (a route with loading.tsx streams in its own Suspense boundary).
 *
 * HydrationBoundary puts a query into the cache during render only when the cache does not know it yet; a
 * query the cache already holds gets the server's data in an effect, after the render. But the shell
 * hydrates first, and its parts may have started the same query by then (the rates strip asks for the
 * currencies): still waiting, without data. The page would then render its first pass without the data its
 * HTML was drawn with — a filter with no currencies where the HTML lists them — and React's hydration
 * fails (#418). So a query that is in the cache but has no data yet gets the server's data now, during
 * render: nothing has been drawn from it, so nothing changes under anyone's feet (its observers are told
 * after the render, as always), and its request still in flight lands on top as any refetch does.
 */
export function ServerDataBoundary({ state, children }: { state: DehydratedState; children: ReactNode }) {
  const client = useQueryClient();
  useMemo(() => {
    const cache = client.getQueryCache();
    const waiting = state.queries.filter((q) => {
      const existing = cache.get(q.queryHash);
      return existing !== undefined && existing.state.data === undefined && q.state.data !== undefined;
    });
    if (waiting.length > 0) hydrate(client, { mutations: [], queries: waiting });
  }, [client, state]);
  return <HydrationBoundary state={state}>{children}</HydrationBoundary>;
}
