import "server-only";
import { type ConcurrencyLimit, processConcurrencyLimit } from "@/lib/platform/concurrency-limit";
import { env } from "@/lib/platform/env";

/** This process's bound on calls to the invoicing API in flight (UPSTREAM_MAX_CONCURRENCY, OVERLOAD_MAX_WAIT_MS). */
export function upstreamLimit(): ConcurrencyLimit {
  return processConcurrencyLimit("upstream", () => {
    const { load } = env();
    return {
      what: "the invoicing API",
      concurrency: load.upstreamConcurrency,
      queue: load.upstreamConcurrency * 4,
      maxWaitMs: load.maxWaitMs,
    };
  });
}
