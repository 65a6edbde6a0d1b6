import { describe, expect, it } from "vitest";
import { counter, gaugeSource, metricsRegistry } from "./metrics";

/** The process's one registry: each metric made once by name, gauges read from their latest source. */
describe("metrics", () => {
  it("makes a metric once per name, whoever asks (Next.js loads a module once per bundle)", async () => {
    counter("test_once_total", "a test counter", ["kind"]).inc({ kind: "a" });
    counter("test_once_total", "a test counter", ["kind"]).inc({ kind: "a" });
    expect((await metricsRegistry().getSingleMetric("test_once_total")?.get())?.values).toEqual([{ value: 2, labels: { kind: "a" } }]);
  });

  it("reads a gauge from the source registered last; a source that fails gives NaN (unknown), never a stale value or 0", async () => {
    gaugeSource("test_gauge", "a test gauge", [], (gauge) => gauge.set(1));
    gaugeSource("test_gauge", "a test gauge", [], (gauge) => gauge.set(2));
    const text = () => metricsRegistry().getSingleMetricAsString("test_gauge");
    expect(await text()).toContain("test_gauge 2");
    gaugeSource("test_gauge", "a test gauge", [], async () => {
      throw new Error("the database did not answer");
    });
    // prom-client writes "Nan"; Prometheus reads NaN in any case.
    expect(await text()).toMatch(/^test_gauge nan$/im);
  });

  it("includes the process's own metrics", async () => {
    expect(await metricsRegistry().metrics()).toContain("process_cpu_user_seconds_total");
  });
});
