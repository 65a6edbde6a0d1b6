import "server-only";
import { upstream } from "@/lib/console/upstream/client";
import type { ProviderOpenApi } from "@/lib/console/upstream/normalise-openapi";
import { ttlCache } from "@/lib/console/upstream/ttl-cache";

// A document changes with the provider's releases, not between page views: one read a minute serves everyone.
const cache = ttlCache<ProviderOpenApi | null>({ ttlMs: 60_000, maxEntries: 1 });

/** The provider's own OpenAPI document (GET /openapi.json at its base URL), or null when it serves none. */
export function providerOpenApi(): Promise<ProviderOpenApi | null> {
  return cache("document", () => upstream().getOpenApiDocument());
}
