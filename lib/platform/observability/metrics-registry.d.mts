import type { Registry } from "prom-client";

/** The registry, and the latest read registered for each gauge by name (lib/platform/observability/metrics.ts). */
export type MetricsHolder = { registry: Registry; sources: Map<string, () => Promise<void> | void> };

export function metricsHolder(): MetricsHolder;
