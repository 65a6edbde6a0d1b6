import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type ConsoleServer, startConsoleServer } from "../console-server";

/**
 * Traces (ARCHITECTURE.md §2): a console started with OTEL_EXPORTER_OTLP_ENDPOINT sends its spans over
 * OTLP/HTTP (JSON) to a receiver this test runs; one request that calls the invoicing API (here the embedded
 * sandbox, over real HTTP) is one trace: the console's request span, its upstream call's child span, and the
 * sandbox's span on the other side of the `traceparent`. A console started without the variable
 * loads no tracing (no traceparent goes to the provider).
 */
type OtlpValue = { stringValue?: string; intValue?: string | number };
type OtlpSpan = {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: { key: string; value: OtlpValue }[];
  status?: { code?: number };
};
type OtlpExport = {
  resourceSpans: { resource: { attributes: { key: string; value: OtlpValue }[] }; scopeSpans: { spans: OtlpSpan[] }[] }[];
};

/** A local OTLP/HTTP receiver: every export it was sent, read as JSON (OTEL_EXPORTER_OTLP_PROTOCOL=http/json). */
function startReceiver(): Promise<{ url: string; exports: OtlpExport[]; close: () => Promise<void> }> {
  const exports: OtlpExport[] = [];
  const server: Server = createServer(async (req, res) => {
    let text = "";
    for await (const chunk of req) text += chunk;
    if (req.method === "POST" && req.url === "/v1/traces" && req.headers["content-type"]?.includes("application/json")) {
      exports.push(JSON.parse(text) as OtlpExport);
    }
    res.writeHead(200, { "content-type": "application/json" }).end("{}");
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        exports,
        close: () => new Promise<void>((done) => server.close(() => done())),
      });
    }),
  );
}

const spansOf = (exports: OtlpExport[]) => exports.flatMap((e) => e.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)));
const attribute = (span: OtlpSpan, key: string) => {
  const value = span.attributes?.find((a) => a.key === key)?.value;
  return value?.stringValue ?? (value?.intValue === undefined ? undefined : Number(value.intValue));
};
const SERVER = 2;
const CLIENT = 3;

describe("traces sent to an OTLP endpoint", () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let server: ConsoleServer;

  beforeAll(async () => {
    receiver = await startReceiver();
    server = await startConsoleServer({
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_SERVICE_NAME: "invoice-console-under-test",
      OTEL_BSP_SCHEDULE_DELAY: "200",
      SEARCH_SYNC_SECONDS: "0",
    });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await receiver?.close();
  });

  it("a console request, its call to the invoicing API and the sandbox's answer are one trace", async () => {
    const answer = await fetch(`${server.url}/api/currencies`, { headers: { cookie: server.sessions.roles.admin } });
    expect(answer.status).toBe(200);
    const requestId = answer.headers.get("x-request-id");
    expect(requestId).toBeTruthy();

    const found = await vi.waitFor(
      () => {
        const spans = spansOf(receiver.exports);
        // The console's own request span (Next.js's, with the request id the server layer gave the request).
        const request = spans.find((s) => s.kind === SERVER && attribute(s, "request_id") === requestId);
        const call = spans.find((s) => s.name === "invoicing-api GET /currencies" && s.traceId === request?.traceId);
        const sandbox = spans.find((s) => s.name === "sandbox GET /currencies" && s.traceId === request?.traceId);
        if (!request || !call || !sandbox) throw new Error(`not yet: ${spans.map((s) => s.name).join(", ")}`);
        return { spans, request, call, sandbox };
      },
      { timeout: 20_000, interval: 200 },
    );
    const { spans, request, call, sandbox } = found;
    const inTrace = spans.filter((s) => s.traceId === request.traceId);
    const byId = new Map(inTrace.map((s) => [s.spanId, s]));

    // The upstream call is a client span under the console's request (through Next.js's own spans, if any).
    expect(call.kind).toBe(CLIENT);
    expect(attribute(call, "http.request.method")).toBe("GET");
    expect(attribute(call, "url.template")).toBe("/currencies");
    expect(attribute(call, "http.response.status_code")).toBe(200);
    expect(attribute(call, "outcome")).toBe("ok");
    expect(attribute(call, "request_id")).toBe(requestId);
    expect(ancestors(call, byId)).toContain(request.spanId);

    // The sandbox's side continues the traceparent the call sent: its span descends from the call's span.
    expect(ancestors(sandbox, byId)).toContain(call.spanId);
    expect(attribute(sandbox, "http.response.status_code")).toBe(200);

    const service = receiver.exports[0].resourceSpans[0].resource.attributes.find((a) => a.key === "service.name");
    expect(service?.value.stringValue).toBe("invoice-console-under-test");
  });

  it("a failed upstream call is an error span with its outcome", async () => {
    const answer = await fetch(`${server.url}/api/invoices/no-such-invoice`, { headers: { cookie: server.sessions.roles.admin } });
    expect(answer.status).toBe(404);
    const requestId = answer.headers.get("x-request-id");
    const call = await vi.waitFor(
      () => {
        const span = spansOf(receiver.exports).find(
          (s) => s.name === "invoicing-api GET /invoices/{id}" && attribute(s, "request_id") === requestId,
        );
        if (!span) throw new Error("not yet");
        return span;
      },
      { timeout: 20_000, interval: 200 },
    );
    expect(attribute(call, "http.response.status_code")).toBe(404);
    expect(attribute(call, "outcome")).toBe("refused");
    expect(call.status?.code).toBe(2); // ERROR
  });

  it("sends no query string, Api-key or cookie to the collector", async () => {
    const cookie = server.sessions.roles.admin;
    const secrets = ["someone@example.com", "a-draft-never-sent", "key-that-must-stay-here", cookie.split("=").slice(1).join("=")];
    const asked = [
      fetch(`${server.url}/api/invoices?q=someone%40example.com`, { headers: { cookie } }),
      fetch(`${server.url}/login?next=%2Finvoices%3Fq%3Da-draft-never-sent`, { redirect: "manual" }),
      fetch(`${server.url}/invoices?q=someone%40example.com`, { headers: { cookie }, redirect: "manual" }),
      fetch(`${server.url}/sandbox/api/v1/invoices?limit=1`, { headers: { "api-key": "key-that-must-stay-here" } }),
    ];
    const ids = (await Promise.all(asked)).map((answer) => answer.headers.get("x-request-id"));
    const spans = await vi.waitFor(
      () => {
        const all = spansOf(receiver.exports);
        const ours = all.filter((s) => ids.includes(attribute(s, "request_id") as string));
        const requestSpans = ours.filter((s) => s.kind === SERVER);
        if (requestSpans.length < ids.length) throw new Error(`not yet: ${requestSpans.length} request spans`);
        return ours;
      },
      { timeout: 20_000, interval: 200 },
    );
    // The request spans keep the path (http.target), without its query.
    expect(spans.map((s) => attribute(s, "http.target")).filter(Boolean)).toEqual(
      expect.arrayContaining(["/api/invoices", "/login", "/sandbox/api/v1/invoices"]),
    );
    for (const span of spans) {
      for (const { key, value } of span.attributes ?? []) {
        const text = String(value.stringValue ?? "");
        expect(text, `${span.name} ${key}`).not.toContain("?");
        for (const secret of secrets) expect(text, `${span.name} ${key}`).not.toContain(secret);
      }
      expect(span.name).not.toContain("?");
    }
  });

  it("does not continue a client's own trace (no trusted proxy): its traceparent is not the request span's parent", async () => {
    const theirs = { trace: "0af7651916cd43dd8448eb211c80319c", span: "b7ad6b7169203331" };
    const answer = await fetch(`${server.url}/api/currencies`, {
      headers: { cookie: server.sessions.roles.admin, traceparent: `00-${theirs.trace}-${theirs.span}-01`, baggage: "user=someone" },
    });
    expect(answer.status).toBe(200);
    const requestId = answer.headers.get("x-request-id");
    const request = await vi.waitFor(
      () => {
        const span = spansOf(receiver.exports).find((s) => s.kind === SERVER && attribute(s, "request_id") === requestId);
        if (!span) throw new Error("not yet");
        return span;
      },
      { timeout: 20_000, interval: 200 },
    );
    expect(request.traceId).not.toBe(theirs.trace);
    expect(request.parentSpanId ?? "").not.toBe(theirs.span);
    expect(spansOf(receiver.exports).some((s) => s.traceId === theirs.trace)).toBe(false);
  });

  // Request ids in the problems of the two wrappers that lacked them, on the same running console.
  it("puts the request id in the sandbox's problems, as in its X-Request-Id header", async () => {
    const answer = await fetch(`${server.url}/sandbox/api/v1/invoices`, { headers: { "api-key": "not-a-key" } });
    expect(answer.status).toBe(401);
    const id = answer.headers.get("x-request-id");
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await answer.json()).toMatchObject({ request_id: id });
  });

  it("puts the request id in the sign-in route's problems", async () => {
    const answer = await fetch(`${server.url}/api/session/sign-in`, {
      method: "POST",
      headers: { origin: "https://elsewhere.example", "content-type": "application/json" },
      body: JSON.stringify({ demo: "admin" }),
    });
    expect(answer.status).toBe(403);
    const id = answer.headers.get("x-request-id");
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await answer.json()).toMatchObject({ code: "cross_site_request", request_id: id });
  });
});

describe("without OTEL_EXPORTER_OTLP_ENDPOINT", () => {
  // Loaded tracing would send a traceparent with every upstream call (the global propagator): none is sent.
  it("loads no tracing: no traceparent to the provider, even with the other signals' endpoints set", async () => {
    // A provider that records what it is sent and lists no currencies.
    const seen: Record<string, string | string[] | undefined>[] = [];
    const provider = createServer((req, res) => {
      seen.push(req.headers);
      res.writeHead(200, { "content-type": "application/json" }).end("[]");
    });
    await new Promise<void>((resolve) => provider.listen(0, "127.0.0.1", resolve));
    const providerUrl = `http://127.0.0.1:${(provider.address() as AddressInfo).port}/api/v1`;
    const server = await startConsoleServer({
      INVOICING_API_URL: providerUrl,
      INVOICING_API_KEY: "key-of-a-recording-provider",
      OTEL_EXPORTER_OTLP_ENDPOINT: "",
      OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: `${providerUrl}/v1/metrics`,
      OTEL_EXPORTER_OTLP_LOGS_ENDPOINT: `${providerUrl}/v1/logs`,
      OTEL_SERVICE_NAME: "invoice-console",
      SEARCH_SYNC_SECONDS: "0",
    });
    try {
      const answer = await fetch(`${server.url}/api/currencies`, {
        headers: { cookie: server.sessions.roles.admin, traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01" },
      });
      expect(await answer.json()).toEqual({ currencies: [] });
      expect(seen.length).toBeGreaterThan(0);
      for (const headers of seen) {
        expect(headers.traceparent).toBeUndefined();
        expect(headers.baggage).toBeUndefined();
      }
    } finally {
      await server.stop();
      await new Promise<void>((resolve) => provider.close(() => resolve()));
    }
  }, 120_000);
});

/** The span's parents, nearest first, as far as the trace's spans go. */
function ancestors(span: OtlpSpan, byId: Map<string, OtlpSpan>): string[] {
  const chain: string[] = [];
  for (let parent = span.parentSpanId; parent && chain.length < 50; parent = byId.get(parent)?.parentSpanId) chain.push(parent);
  return chain;
}
