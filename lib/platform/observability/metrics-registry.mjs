// The process's one Prometheus registry (GET /api/metrics), kept on globalThis under one key: the
// server layer (scripts/server/metrics.mjs) asks for it before Next.js starts, and the app's bundles
// (./metrics.ts, loaded once per bundle) find the same one. It lives in lib/platform, which the server layer may
// import, because lib/ imports nothing outside lib/ (ARCHITECTURE.md §8). Under `next dev` or in a
// unit test there is no server layer, and the first caller makes it.
import { collectDefaultMetrics, Registry } from "prom-client";

const KEY = Symbol.for("invoice-console.metrics");

/** @returns {import("./metrics-registry.d.mts").MetricsHolder} */
export function metricsHolder() {
  if (!globalThis[KEY]) {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });
    globalThis[KEY] = { registry, sources: new Map() };
  }
  return globalThis[KEY];
}
