import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Problem } from "@/lib/contract/problem";
import { createUpstream } from "./client";

/** A real HTTP server that misbehaves on purpose, one way per path. */
const behaviours: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {
  "/ok/currencies": (_, res) => json(res, 200, { currencies: [{ code: "BTC", name: "Bitcoin" }], extra: true }),
  "/401/currencies": (_, res) => json(res, 401, { title: "Unauthorized", status: 401 }),
  "/500/currencies": (_, res) => json(res, 500, { oops: true }),
  "/503/currencies": (_, res) => res.writeHead(503).end("<html>Service Unavailable</html>"),
  "/garbage/currencies": (_, res) => res.writeHead(200, { "content-type": "application/json" }).end("{not json"),
  "/shape/currencies": (_, res) => json(res, 200, { currencies: "none" }),
  "/hang/currencies": () => {},
  // Nine megabytes of a valid list: more than the console reads of one answer.
  "/huge/currencies": (_, res) => {
    const item = JSON.stringify({ code: "BTC", name: "B".repeat(1_000) });
    res.writeHead(200, { "content-type": "application/json" });
    res.write('{"currencies":[');
    for (let i = 0; i < 9_000; i++) res.write(`${i ? "," : ""}${item}`);
    res.end("]}");
  },
  // Headers at once, then a body that never ends: the timeout covers the whole answer.
  "/stall/currencies": (_, res) => res.writeHead(200, { "content-type": "application/json" }).write('{"currencies": ['),
  // Compressed when the client asks for it, refusals too.
  "/gzip/currencies": (req, res) => gzipped(req, res, 200, { currencies: [{ code: "ETH", name: "Ether" }] }),
  "/gzip/invoices/invoice_x": (req, res) =>
    gzipped(req, res, 422, { message: "Too late to change.", errors: [{ field: "status", message: "Paid invoices stay paid." }] }),
  "/redirect/currencies": (_, res) => res.writeHead(302, { location: `${origin}/ok/currencies` }).end(),
  "/429/currencies": (_, res) => res.writeHead(429, { "retry-after": "17" }).end(),
  // Busy for a moment: every other answer is a 503 with a short Retry-After.
  "/busy/currencies": (_, res) =>
    busyCalls++ % 2 === 0
      ? res.writeHead(503, { "retry-after": "0" }).end()
      : json(res, 200, { currencies: [{ code: "SOL", name: "Solana" }] }),
  "/busy/invoices/invoice_x": (_, res) => {
    busyCalls++;
    res.writeHead(503, { "retry-after": "0" }).end();
  },
  "/busy-long/currencies": (_, res) => {
    busyCalls++;
    res.writeHead(503, { "retry-after": "30" }).end();
  },
  // Its own OpenAPI document, a number no float keeps in it; another provider's web page for any path.
  "/ok/openapi.json": (_, res) =>
    res
      .writeHead(200, { "content-type": "application/json" })
      .end('{"openapi":"3.1.0","info":{"title":"Pay","version":"2"},"paths":{"/invoices":{}},"x-limit":0.10000000000000000001}'),
  "/401/openapi.json": (_, res) => json(res, 401, { title: "Unauthorized", status: 401 }),
  "/html/openapi.json": (_, res) => res.writeHead(200, { "content-type": "text/html" }).end("<html>Welcome</html>"),
  "/404/invoices/invoice_x": (_, res) =>
    json(res, 404, { title: "Not found", status: 404, code: "not_found", detail: "No invoice has the id invoice_x." }),
};

let server: Server;
let busyCalls = 0;
let origin: string;
const seenKeys: (string | undefined)[] = [];
const seenPaths: (string | undefined)[] = [];
let lastAcceptEncoding: string | undefined;

beforeAll(async () => {
  server = createServer((req, res) => {
    seenKeys.push(req.headers["api-key"] as string | undefined);
    seenPaths.push(req.url);
    lastAcceptEncoding = req.headers["accept-encoding"];
    (behaviours[req.url ?? ""] ?? ((_, r) => json(r, 404, {})))(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function gzipped(req: IncomingMessage, res: ServerResponse, status: number, body: unknown) {
  if (!/\bgzip\b/.test(String(req.headers["accept-encoding"]))) return json(res, status, body);
  res.writeHead(status, { "content-type": "application/json", "content-encoding": "gzip" }).end(gzipSync(JSON.stringify(body)));
}

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

const client = (mode: string, baseUrl = `${origin}/${mode}`) => createUpstream({ baseUrl, apiKey: "sk_secret_123", timeoutMs: 300 });

async function problemOf(promise: Promise<unknown>): Promise<Problem> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(Problem);
  return error as Problem;
}

describe("upstream client", () => {
  it("sends the Api-key header and answers the currencies in the console's one shape", async () => {
    const body = await client("ok").listCurrencies();
    expect(body).toEqual({ currencies: [{ code: "BTC", name: "Bitcoin", network: null, decimals: null }] });
    expect(seenKeys.at(-1)).toBe("sk_secret_123");
  });

  it.each([
    ["401", 502, "upstream_key_rejected", /INVOICING_API_KEY/],
    ["500", 502, "upstream_error", /HTTP 500/],
    ["503", 502, "upstream_error", /HTTP 503/],
    ["garbage", 502, "upstream_invalid_response", /did not answer JSON/],
    ["huge", 502, "upstream_invalid_response", /currencies: the answer is longer than 8 MB/],
    ["shape", 502, "upstream_invalid_response", /did not answer a list of currencies/],
    ["hang", 504, "upstream_timeout", /0\.3 s/],
    ["stall", 504, "upstream_timeout", /0\.3 s/],
    ["redirect", 502, "upstream_error", /HTTP 302/],
    ["429", 429, "upstream_rate_limited", /17 s/],
  ])("maps an upstream that answers %s to %i %s", async (mode, status, code, detail) => {
    const problem = await problemOf(client(mode).listCurrencies());
    expect(problem.status).toBe(status);
    expect(problem.code).toBe(code);
    expect(problem.detail).toMatch(detail);
    expect(JSON.stringify(problem.toJSON())).not.toContain("sk_secret_123");
  });

  it("asks a read once more after a short 503 Retry-After; never a change, never after a long wait", async () => {
    busyCalls = 0;
    expect((await client("busy").listCurrencies()).currencies.map((c) => c.code)).toEqual(["SOL"]);
    expect(busyCalls).toBe(2);
    busyCalls = 0;
    expect((await problemOf(client("busy").updateInvoiceStatus("invoice_x", { status: "cancelled" }))).upstreamStatus).toBe(503);
    expect(busyCalls).toBe(1);
    busyCalls = 0;
    expect((await problemOf(client("busy-long").listCurrencies())).upstreamStatus).toBe(503);
    expect(busyCalls).toBe(1);
  });

  it("keeps Retry-After on a rate-limited answer", async () => {
    const problem = await problemOf(client("429").listCurrencies());
    expect(problem.headers["retry-after"]).toBe("17");
  });

  it("reads the provider's own OpenAPI document; none from a provider without one, or with a web page there", async () => {
    const document = await client("ok").getOpenApiDocument();
    expect(document).toMatchObject({ openapi: "3.1.0", info: { title: "Pay", version: "2" }, paths: { "/invoices": {} } });
    expect(typeof document?.["x-limit"]).toBe("number");
    expect(seenPaths.at(-1)).toBe("/ok/openapi.json");
    expect(await client("404").getOpenApiDocument()).toBeNull();
    expect(await client("html").getOpenApiDocument()).toBeNull();
    expect((await problemOf(client("401").getOpenApiDocument())).code).toBe("upstream_key_rejected");
  });

  it("passes the provider's own 404 problem through", async () => {
    const problem = await problemOf(client("404").getInvoice("invoice_x"));
    expect(problem).toMatchObject({ status: 404, code: "not_found", detail: "No invoice has the id invoice_x." });
  });

  it.each([".", "..", "", " "])("answers not_found for the id %j without asking: sent, it would name another path", async (id) => {
    const before = seenKeys.length;
    const ok = client("ok");
    for (const call of [ok.getInvoice(id), ok.updateInvoiceStatus(id, { status: "cancelled" }), ok.listWebhookDeliveries(id)]) {
      expect(await problemOf(call)).toMatchObject({ status: 404, code: "not_found", upstreamStatus: null });
    }
    expect(seenKeys.length).toBe(before);
  });

  it("sends an id holding a slash or dots as one encoded path segment", async () => {
    const ok = client("ok");
    for (const id of ["a/../b", "...", "./x"]) await problemOf(ok.getInvoice(id));
    expect(seenPaths.slice(-3)).toEqual(["/ok/invoices/a%2F..%2Fb", "/ok/invoices/...", "/ok/invoices/.%2Fx"]);
  });

  it("never follows a redirect: the Api-key goes nowhere but the configured provider", async () => {
    const before = seenKeys.length;
    await problemOf(client("redirect").listCurrencies());
    expect(seenKeys.length).toBe(before + 1);
  });

  it("reads a provider's compressed answers, its refusals too", async () => {
    expect(await client("gzip").listCurrencies()).toEqual({ currencies: [{ code: "ETH", name: "Ether", network: null, decimals: null }] });
    const problem = await problemOf(client("gzip").updateInvoiceStatus("invoice_x", { status: "cancelled" }));
    expect(problem).toMatchObject({
      status: 422,
      detail: "Too late to change.",
      errors: [{ pointer: "/status", detail: "Paid invoices stay paid." }],
    });
  });

  it("asks the embedded sandbox for uncompressed answers: gzip over loopback only costs CPU", async () => {
    const embedded = createUpstream({ baseUrl: `${origin}/gzip`, apiKey: "k", timeoutMs: 300, embedded: true });
    expect(await embedded.listCurrencies()).toMatchObject({ currencies: [{ code: "ETH" }] });
    expect(lastAcceptEncoding).toBe("identity");
  });

  it("answers 502 unreachable when nothing listens", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const problem = await problemOf(client("", `http://127.0.0.1:${port}/api/v1`).listCurrencies());
    expect(problem).toMatchObject({ status: 502, code: "upstream_unreachable" });
    expect(problem.detail).toContain(`127.0.0.1:${port}`);
  });
});

describe("operationOf (the upstream metrics' operation label, the upstream and sandbox spans' names)", () => {
  it("names the method and the path's pattern, never an id or a query", async () => {
    const { operationOf } = await import("@/lib/contract/operation");
    expect(operationOf("GET", "/invoices?status=paid&page=2")).toBe("GET /invoices");
    expect(operationOf("GET", "/invoices/invoice_0190a1d2-1111-7000-8000-000000000001")).toBe("GET /invoices/{id}");
    expect(operationOf("PATCH", "/invoices/a%2Fb")).toBe("PATCH /invoices/{id}");
    expect(operationOf("GET", "/invoices/x/webhook-deliveries")).toBe("GET /invoices/{id}/webhook-deliveries");
    expect(operationOf("GET", "/rates?at=2026-01-01T00%3A00Z")).toBe("GET /rates");
  });
});
