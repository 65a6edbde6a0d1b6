import "server-only";
import { createConcurrencyLimit, type ConcurrencyLimit } from "@/lib/concurrency-limit";
import { env } from "@/lib/env";

let limit: ConcurrencyLimit | undefined;

/** This process's bound on calls to the invoicing API in flight (UPSTREAM_MAX_CONCURRENCY, OVERLOAD_MAX_WAIT_MS). */
export function upstreamLimit(): ConcurrencyLimit {
  const { load } = env();
  return (limit ??= createConcurrencyLimit({
    what: "the invoicing API",
    concurrency: load.upstreamConcurrency,
    queue: load.upstreamConcurrency * 4,
    maxWaitMs: load.maxWaitMs,
  }));
}
