import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { normaliseInvoice } from "@/lib/console/upstream/normalise";

/**
 * The console's /api/invoices against a real local HTTP server standing in for the provider: what the
 * browser gets for good and bad queries, and what reaches the provider.
 */
const KEY = "sk_live_must_not_leak";
let server: Server;
let requests: { url: string; key: string | undefined }[] = [];
let answer: { status: number; body: unknown } = { status: 200, body: {} };
let listRoute: (request: Request, context: { params: Promise<never> }) => Promise<Response>;
let getRoute: (request: Request, context: { params: Promise<{ id: string }> }) => Promise<Response>;
let cookie: string;

const invoice = {
  invoice_id: "invoice_0190a1d2-1111-7000-8000-000000000001",
  order_id: "ORD-1",
  status: "completed",
  fiat_amount: 12.5,
  fiat_currency: "EUR",
  crypto_amount: 0.0002,
  currency: "BTC",
  created_at: "2026-01-01T00:00:00.000Z",
  updated_at: "2026-01-01T00:00:00.000Z",
  provider_only_field: "kept",
};
const page = {
  items: [invoice],
  pagination: { current_page: 2, page_size: 10, total_pages: 5, total_records: 41, has_next: true, has_previous: true },
};

beforeAll(async () => {
  server = createServer((req, res) => {
    requests.push({ url: req.url ?? "", key: req.headers["api-key"] as string | undefined });
    res.writeHead(answer.status, { "content-type": "application/json" }).end(JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  process.env.INVOICING_API_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/`;
  process.env.INVOICING_API_KEY = KEY;
  ({ GET: listRoute } = await import("@/app/api/invoices/route"));
  ({ GET: getRoute } = await import("@/app/api/invoices/[id]/route"));
  cookie = await (await import("@/lib/console/auth/signed-in-cookie")).signedInCookie("viewer");
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function list(query: string) {
  requests = [];
  const response = await listRoute(new Request(`http://console.test/api/invoices${query}`, { headers: { cookie } }), {
    params: Promise.resolve() as never,
  });
  const text = await response.text();
  expect(text).not.toContain(KEY);
  return { status: response.status, type: response.headers.get("content-type"), body: JSON.parse(text) };
}

describe("GET /api/invoices", () => {
  it("passes a provider's own currency code as it is spelled, and refuses one that is no code", async () => {
    answer = { status: 200, body: page };
    expect((await list("?currency=USDT.TRC20")).status).toBe(200);
    expect(new URL(requests[0].url, "http://x").searchParams.get("currency")).toBe("USDT.TRC20");
    const refused = await list("?currency=BTC%3Bdrop");
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual([expect.objectContaining({ pointer: "/currency" })]);
    expect(requests).toHaveLength(0);
  });

  it("forwards the normalised query with the server's key and answers the provider's page", async () => {
    answer = { status: 200, body: page };
    const { status, body } = await list("?status=completed&currency=btc&page=2&page_size=10&created_after=2026-01-01");
    expect(status).toBe(200);
    expect(body).toEqual({ items: [normaliseInvoice(invoice)], pagination: page.pagination });
    expect(body.items[0].provider_fields).toEqual([{ key: "provider_only_field", value: "kept" }]);
    expect(requests).toHaveLength(1);
    const sent = new URL(requests[0].url, "http://x");
    expect(sent.pathname).toBe("/api/v1/invoices");
    expect(Object.fromEntries(sent.searchParams)).toEqual({
      status: "completed",
      // As given: the provider decides what its codes and their case are.
      currency: "btc",
      created_after: "2026-01-01T00:00:00.000Z",
      page: "2",
      page_size: "10",
      sort_by: "created_at",
      sort_order: "desc",
    });
    expect(requests[0].key).toBe(KEY);
  });

  it.each([
    ["?page=0", "/page"],
    ["?page_size=500", "/page_size"],
    ["?status=refunded", "/status"],
    ["?sort_by=order_id", "/sort_by"],
    ["?created_before=soon", "/created_before"],
  ])("rejects %s with 422 naming %s and sends nothing upstream", async (query, pointer) => {
    const { status, type, body } = await list(query);
    expect(status).toBe(422);
    expect(type).toBe("application/problem+json");
    expect(body.errors[0].pointer).toBe(pointer);
    expect(requests).toHaveLength(0);
  });

  it.each([
    [401, { title: "Unauthorized", status: 401 }, 502, "upstream_key_rejected"],
    [500, { error: "boom" }, 502, "upstream_error"],
    [200, { items: "nope" }, 502, "upstream_invalid_response"],
  ])("maps a provider answering %i to %i %s", async (upstreamStatus, upstreamBody, status, code) => {
    answer = { status: upstreamStatus, body: upstreamBody };
    const { status: got, type, body } = await list("");
    expect(got).toBe(status);
    expect(type).toBe("application/problem+json");
    expect(body.code).toBe(code);
    expect(body.detail).toEqual(expect.any(String));
  });
});

describe("GET /api/invoices/[id]", () => {
  const get = (id: string) =>
    getRoute(new Request(`http://console.test/api/invoices/${encodeURIComponent(id)}`, { headers: { cookie } }), {
      params: Promise.resolve({ id }),
    });

  it.each(["invoice_0190a1d2-1111-7000-8000-000000000001", "0190a1d2-1111-7000-8000-000000000001", "inv_8Hq2x", "48213", "inv/2024 07"])(
    "asks the provider for %s exactly as given, URL-encoded",
    async (id) => {
      answer = { status: 200, body: { ...invoice, invoice_id: id } };
      requests = [];
      const response = await get(id);
      expect(response.status).toBe(200);
      expect((await response.json()).invoice_id).toBe(id);
      expect(requests[0].url).toBe(`/api/v1/invoices/${encodeURIComponent(id)}`);
    },
  );

  it("passes the provider's 404 on with its own message", async () => {
    answer = { status: 404, body: { message: "Invoice abc does not exist" } };
    const response = await get("abc");
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ status: 404, detail: "Invoice abc does not exist" });
  });
});
