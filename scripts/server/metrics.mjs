// The server layer's metrics, in the process's one registry (lib/platform/observability/metrics-registry.mjs,
// GET /api/metrics), made before Next.js starts so the app's bundles (lib/platform/observability/metrics.ts)
// add theirs to the same one.
// This layer records what only it sees: every request's duration by route pattern and status (the routes
// manifest names the pattern of pages and API routes alike, and a request refused here never reaches a route),
// the front door's places, queue and refusals, and the process's own metrics (CPU, memory, event loop, GC).
import { Counter, Gauge, Histogram } from "prom-client";
import { metricsHolder } from "../../lib/platform/observability/metrics-registry.mjs";

/** Seconds buckets for answers a person waits for: 5 ms to 30 s. */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * @param {Record<string, { active: number, waiting: number }>} pools the front door's admissions, by pool name
 */
export function createServerMetrics(pools) {
  const registers = [metricsHolder().registry];

  const requests = new Histogram({
    name: "invoice_console_http_request_duration_seconds",
    help: "Requests answered by this process: seconds from arrival to the answer's end, by method, route pattern and status.",
    labelNames: ["method", "route", "status"],
    buckets: REQUEST_BUCKETS,
    registers,
  });
  new Gauge({
    name: "invoice_console_front_door_active",
    help: "Requests holding a place at the front door (REQUEST_MAX_CONCURRENCY, ANONYMOUS_MAX_CONCURRENCY), by pool.",
    labelNames: ["pool"],
    registers,
    collect() {
      for (const [pool, admission] of Object.entries(pools)) this.set({ pool }, admission.active);
    },
  });
  new Gauge({
    name: "invoice_console_front_door_waiting",
    help: "Requests waiting for a place at the front door, by pool.",
    labelNames: ["pool"],
    registers,
    collect() {
      for (const [pool, admission] of Object.entries(pools)) this.set({ pool }, admission.waiting);
    },
  });
  const refused = new Counter({
    name: "invoice_console_front_door_refused_total",
    help: "Requests the front door refused with 503 (busy: no place in time; shutting_down: after SIGTERM), by pool.",
    labelNames: ["pool", "reason"],
    registers,
  });
  for (const pool of Object.keys(pools)) refused.inc({ pool, reason: "busy" }, 0);

  return {
    /** One answered (or abandoned) request. `route` is the pattern, or "unmatched". */
    request(method, route, status, seconds) {
      requests.observe({ method, route: route ?? "unmatched", status: String(status) }, seconds);
    },
    refused(pool, reason) {
      refused.inc({ pool, reason });
    },
  };
}
