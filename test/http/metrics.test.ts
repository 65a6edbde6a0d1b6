// @ts-expect-error -- no type declarations; the parser Prometheus's own text format is read with
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { describe, expect, it, vi } from "vitest";
import { useConsoleServer } from "./use-console-server";

/**
 * GET /api/metrics, through the real server on the embedded sandbox: refused to anyone without the
 * monitor's token or an admin's session (before anything is read), Prometheus's text format with it (read by a
 * parser, not a regex), and counters that move with the requests made.
 */
const HEALTH_TOKEN = "metrics-scrape-token-0123456789";
const server = useConsoleServer({ HEALTH_TOKEN });

type Sample = { labels?: Record<string, string>; value?: string };
type Family = { name: string; help: string; type: string; metrics: Sample[] };
type Scrape = { types: Map<string, string>; samples: Map<string, Sample[]> };

/**
 * The scrape, read by parse-prometheus-text-format: once as written, for each family's type; once without the
 * histograms' TYPE lines, for the samples, since the library folds a labelled histogram's series into one
 * sample without labels (it only knows unlabelled ones): untyped, `x_bucket`, `x_sum` and `x_count` come back as
 * families of their own with every label.
 */
async function scrape(headers: Record<string, string> = { authorization: `Bearer ${HEALTH_TOKEN}` }): Promise<Scrape> {
  const response = await fetch(`${server().url}/api/metrics`, { headers });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toContain("text/plain; version=0.0.4");
  const text = await response.text();
  const typed = parsePrometheusTextFormat(text) as Family[];
  const untyped = parsePrometheusTextFormat(
    text
      .split("\n")
      .filter((line) => !(line.startsWith("# TYPE ") && line.endsWith(" histogram")))
      .join("\n"),
  ) as Family[];
  // A histogram's series come label set by label set (buckets, sum, count, then the next), so an untyped name
  // recurs: its samples are gathered.
  const samples = new Map<string, Sample[]>();
  for (const family of untyped) samples.set(family.name, [...(samples.get(family.name) ?? []), ...family.metrics]);
  for (const [name, list] of samples) if (list.length === 0) samples.delete(name);
  return { types: new Map(typed.map((family) => [family.name, family.type])), samples };
}

/** The sum of a family's samples whose labels include `labels` (0 when there is none yet). */
function countOf({ samples }: Scrape, name: string, labels: Record<string, string>): number {
  const family = samples.get(name);
  if (!family) throw new Error(`${name} is not in the scrape`);
  return family.filter((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v)).reduce((sum, m) => sum + Number(m.value), 0);
}

describe("GET /api/metrics", () => {
  it("is refused without the token or an admin's session: 401 anonymous or with a wrong token, 403 for other roles", async () => {
    const ask = (headers: Record<string, string>) => fetch(`${server().url}/api/metrics`, { headers });
    const anonymous: Record<string, string>[] = [
      {},
      { authorization: "Bearer wrong-token-of-some-length" },
      { authorization: HEALTH_TOKEN },
    ];
    for (const headers of anonymous) {
      const refused = await ask(headers);
      expect(refused.status).toBe(401);
      expect(refused.headers.get("content-type")).toContain("application/problem+json");
      const body = await refused.text();
      expect(JSON.parse(body)).toMatchObject({ status: 401, code: "unauthenticated" });
      expect(body).not.toContain("invoice_console_");
    }
    for (const role of ["viewer", "finance", "support"] as const) {
      const refused = await ask({ cookie: server().sessions.roles[role] });
      expect(refused.status).toBe(403);
      expect(await refused.json()).toMatchObject({ status: 403, code: "forbidden" });
    }
    expect((await ask({ cookie: server().sessions.roles.admin })).status).toBe(200);
  });

  it("answers Prometheus's text format: requests, upstream calls, queues, webhooks, mirror, rates and the process", async () => {
    const viewer = { cookie: server().sessions.roles.viewer };
    // Something for each family to show: a list, rates, and a scrape.
    expect((await fetch(`${server().url}/api/invoices`, { headers: viewer })).status).toBe(200);
    expect((await fetch(`${server().url}/api/rates`, { headers: viewer })).status).toBe(200);
    // A request is recorded as its answer ends on the server, which may be a moment after the client has it.
    const scraped = await vi.waitFor(async () => {
      const got = await scrape();
      expect(got.samples.get("invoice_console_http_request_duration_seconds_count")?.map((m) => m.labels?.route)).toContain("/api/rates");
      return got;
    });
    const { types, samples } = scraped;
    expect(types.get("invoice_console_http_request_duration_seconds")).toBe("HISTOGRAM");
    expect(types.get("invoice_console_upstream_request_duration_seconds")).toBe("HISTOGRAM");
    for (const name of [
      "invoice_console_http_request_duration_seconds_count",
      "invoice_console_upstream_request_duration_seconds_count",
      "invoice_console_front_door_active",
      "invoice_console_front_door_waiting",
      "invoice_console_front_door_refused_total",
      "invoice_console_concurrency_active",
      "invoice_console_concurrency_waiting",
      "invoice_console_webhook_outbox_pending",
      "invoice_console_rates_cache_age_seconds",
      "invoice_console_search_mirror_age_seconds",
      "process_cpu_user_seconds_total",
      "process_resident_memory_bytes",
      "nodejs_eventloop_lag_seconds",
    ]) {
      expect(samples.has(name), name).toBe(true);
    }
    expect(
      samples
        .get("invoice_console_front_door_active")
        ?.map((m) => m.labels?.pool)
        .sort(),
    ).toEqual(["anonymous", "people"]);
    expect(samples.get("invoice_console_concurrency_active")?.map((m) => m.labels?.limit)).toContain("upstream");
    expect(Number(samples.get("invoice_console_rates_cache_age_seconds")?.[0]?.value)).toBeGreaterThanOrEqual(0);
    expect(Number(samples.get("invoice_console_webhook_outbox_pending")?.[0]?.value)).toBeGreaterThanOrEqual(0);
    // Route patterns, never paths with ids.
    const routes = samples.get("invoice_console_http_request_duration_seconds_count")?.map((m) => m.labels?.route) ?? [];
    expect(routes).toContain("/api/invoices");
    expect(routes).toContain("/api/rates");
    expect(routes.some((route) => /invoice_[0-9a-f-]{36}/.test(String(route)))).toBe(false);
    expect(
      countOf(scraped, "invoice_console_upstream_request_duration_seconds_count", { operation: "GET /invoices", outcome: "ok" }),
    ).toBeGreaterThan(0);
  });

  it("counts requests by route and status, and upstream calls by operation and outcome, as they happen", async () => {
    const viewer = { cookie: server().sessions.roles.viewer };
    const before = await scrape();
    const requests = { route: "/api/currencies", status: "200", method: "GET" };
    for (let i = 0; i < 3; i++) expect((await fetch(`${server().url}/api/currencies`, { headers: viewer })).status).toBe(200);
    expect((await fetch(`${server().url}/api/currencies`)).status).toBe(401);
    const id = "invoice_0190a1d2-1111-7000-8000-00000000dead";
    expect((await fetch(`${server().url}/api/invoices/${id}`, { headers: viewer })).status).toBe(404);
    await vi.waitFor(async () => {
      const after = await scrape();
      const http = "invoice_console_http_request_duration_seconds_count";
      expect(countOf(after, http, requests) - countOf(before, http, requests)).toBe(3);
      expect(countOf(after, http, { ...requests, status: "401" }) - countOf(before, http, { ...requests, status: "401" })).toBe(1);
      const upstream = "invoice_console_upstream_request_duration_seconds_count";
      const currencies = { operation: "GET /currencies", outcome: "ok" };
      expect(countOf(after, upstream, currencies) - countOf(before, upstream, currencies)).toBe(3);
      const missing = { operation: "GET /invoices/{id}", outcome: "refused" };
      expect(countOf(after, upstream, missing) - countOf(before, upstream, missing)).toBe(1);
    });
  });
});
