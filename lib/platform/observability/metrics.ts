import "server-only";
import { Counter, Gauge, Histogram, type Registry } from "prom-client";
import { metricsHolder as holder } from "./metrics-registry.mjs";

/**
 * The process's Prometheus metrics (GET /api/metrics). One registry per process, on globalThis
 * (./metrics-registry.mjs): the server layer (scripts/server/server.mjs) makes it before Next.js
 * starts and records what only it sees (every request's duration by route pattern and status, the front
 * door's queue and refusals, the process's own metrics); the app's bundles (Next.js loads a module once per
 * bundle) find it there and add theirs. Under `next dev` or in a unit test there is no server layer, and the
 * first caller makes it.
 *
 * A metric is made once per process by name, whichever bundle asks first; a gauge read at scrape time takes
 * its value from the source registered last (`gaugeSource`), so a bundle loaded later does not leave a stale
 * closure behind.
 */
export function metricsRegistry(): Registry {
  return holder().registry;
}

function once<M>(name: string, make: (registers: Registry[]) => M): M {
  const { registry } = holder();
  return (registry.getSingleMetric(name) as M | undefined) ?? make([registry]);
}

export function counter<L extends string>(name: string, help: string, labelNames: readonly L[] = []): Counter<L> {
  return once(name, (registers) => new Counter({ name, help, labelNames, registers }));
}

export function histogram<L extends string>(name: string, help: string, labelNames: readonly L[], buckets: number[]): Histogram<L> {
  return once(name, (registers) => new Histogram({ name, help, labelNames, buckets, registers }));
}

/**
 * A gauge read when scraped: `read` sets its value(s). The latest `read` registered for a name is the one used;
 * a failing read makes the value unknown (NaN, or no sample when labelled) for that scrape, never a failed scrape.
 */
export function gaugeSource<L extends string>(
  name: string,
  help: string,
  labelNames: readonly L[],
  read: (gauge: Gauge<L>) => Promise<void> | void,
): void {
  const h = holder();
  const gauge: Gauge<L> = once(
    name,
    (registers) =>
      new Gauge({
        name,
        help,
        labelNames,
        registers,
        async collect() {
          // Unknown (no source yet, nothing to measure yet, or the read failed) is NaN for a gauge without labels
          // (prom-client would otherwise answer 0, which reads as "no lag"), no sample for one with labels.
          this.reset();
          if (labelNames.length === 0) (this as Gauge<string>).set(Number.NaN);
          try {
            await h.sources.get(name)?.();
          } catch {
            this.reset();
            if (labelNames.length === 0) (this as Gauge<string>).set(Number.NaN);
          }
        },
      }),
  );
  h.sources.set(name, () => read(gauge));
}

/** Seconds buckets for answers a person waits for: 5 ms to 30 s. */
export const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
