import { isServer, QueryClient } from "@tanstack/react-query";
import { Problem } from "@/lib/contract/problem";

function makeQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // Data prefetched on the server is fresh on arrival: no refetch right after hydration.
        staleTime: 30_000,
        // On the server, never: the page would wait for every retry before sending any HTML. In the browser,
        // once more for what may pass (network, gateway timeout, unavailable), never for a definite answer.
        retry: isServer ? false : (failures, error) => failures < 1 && error instanceof Problem && [0, 503, 504].includes(error.status),
        // A busy answer (503 with Retry-After) says when to ask again; anything else retries after a second.
        retryDelay: (_, error) => {
          const seconds = error instanceof Problem ? Number(error.headers["retry-after"]) : NaN;
          return Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds, 30) * 1000 : 1000;
        },
      },
    },
  });
}

let browserQueryClient: QueryClient | undefined;

/** A new client per server request; one for the life of the page in the browser (TanStack's Next.js pattern). */
export function getQueryClient(): QueryClient {
  if (isServer) return makeQueryClient();
  return (browserQueryClient ??= makeQueryClient());
}
