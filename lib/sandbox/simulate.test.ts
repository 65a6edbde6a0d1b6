import { randomUUID } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

/** POST /webhooks/simulate and GET /invoices/{id}/webhook-deliveries, sent for real to a local receiver. */

process.env.SANDBOX_WEBHOOK_RETRY_SCHEDULE = "50ms,100ms";
process.env.SANDBOX_CALLBACK_ALLOWLIST = "127.0.0.1";

const SECRET = "whsec_dGVzdA=="; // the test merchant's (test-fixtures.ts)
type Received = { headers: IncomingHttpHeaders; body: string };
const received = new Map<string, Received[]>();
/** What the receiver answers, one status per request; the last one repeats. */
let answers: number[] = [200];
let receiver: Server;
let hookUrl: string;

const simulateRoute = await import("@/app/sandbox/api/v1/webhooks/simulate/route");
const deliveriesRoute = await import("@/app/sandbox/api/v1/invoices/[id]/webhook-deliveries/route");
const invoiceRoute = await import("@/app/sandbox/api/v1/invoices/[id]/route");
const { getSandboxDb } = await import("@/lib/sandbox");
const { createTestMerchant } = await import("@/test/sandbox-fixtures");

beforeAll(async () => {
  receiver = createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    const log = received.get(req.url!) ?? [];
    received.set(req.url!, [...log, { headers: req.headers, body }]);
    const status = answers[Math.min(log.length, answers.length - 1)];
    res.writeHead(status, { "content-type": "text/plain" }).end(status === 200 ? `ok ${"x".repeat(3_000)}` : "receiver is down");
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => receiver.close(resolve)));
beforeEach(() => {
  answers = [200];
});

async function merchant(options: { callback?: boolean; scopes?: string[]; status?: string } = {}) {
  const db = await getSandboxDb();
  const path = `/hooks/${randomUUID()}`;
  const { key, invoices } = await createTestMerchant(
    db,
    [
      {
        createdAt: new Date("2026-05-01T10:00:00Z"),
        status: options.status ?? "pending",
        callbackUrl: options.callback === false ? null : `${hookUrl}${path}`,
      },
    ],
    options.scopes,
  );
  return { key, id: `invoice_${invoices[0].id}`, received: () => received.get(path) ?? [] };
}

async function simulate(key: string | null, body: unknown, raw?: string) {
  const response = await simulateRoute.POST(
    new Request("http://sandbox.test/sandbox/api/v1/webhooks/simulate", {
      method: "POST",
      headers: { ...(key ? { "api-key": key } : {}), "content-type": "application/json" },
      body: raw ?? JSON.stringify(body),
    }),
    { params: Promise.resolve({}) },
  );
  return { status: response.status, body: await response.json() };
}

async function deliveries(key: string, id: string) {
  const response = await deliveriesRoute.GET(
    new Request(`http://sandbox.test/sandbox/api/v1/invoices/${id}/webhook-deliveries`, { headers: { "api-key": key } }),
    {
      params: Promise.resolve({ id }),
    },
  );
  return { status: response.status, body: await response.json() };
}

describe("POST /webhooks/simulate", () => {
  it("200: sends a signed webhook that says simulated, answers where it went and what the receiver said, and leaves the invoice as it was", async () => {
    const { key, id, received: got } = await merchant();
    const before = await invoiceRoute
      .GET(new Request(`http://sandbox.test/x`, { headers: { "api-key": key } }), { params: Promise.resolve({ id }) })
      .then((r) => r.json());

    const { status, body } = await simulate(key, { invoice_id: id, status: "completed" });
    expect(status).toBe(200);
    expect(body.status).toBe("delivered");
    expect(body.message).toContain(`${hookUrl}/hooks/`);
    expect(body.message).toContain("the receiver answered HTTP 200");

    // Answered once the attempt was made: the receiver already has it.
    expect(got()).toHaveLength(1);
    const [{ headers, body: raw }] = got();
    const payload = new Webhook(SECRET).verify(raw, headers as Record<string, string>) as {
      data: { invoice: { status: string }; previous_status: string; simulated: boolean };
    };
    expect(payload).toMatchObject({
      type: "invoice.status_changed",
      data: { previous_status: "pending", simulated: true, invoice: { invoice_id: id, status: "completed" } },
    });
    expect(() => new Webhook("whsec_b3RoZXI=").verify(raw, headers as Record<string, string>)).toThrow();

    const after = await invoiceRoute
      .GET(new Request(`http://sandbox.test/x`, { headers: { "api-key": key } }), { params: Promise.resolve({ id }) })
      .then((r) => r.json());
    expect(after).toEqual(before);
    expect(after.status).toBe("pending");
  });

  it("a receiver that answers 500 and then 200 gets the same webhook-id twice; the deliveries extension shows both attempts", async () => {
    answers = [500, 200];
    const { key, id, received: got } = await merchant();
    const { status, body } = await simulate(key, { invoice_id: id, status: "cancelled" });
    expect(status).toBe(200);
    expect(body).toEqual({
      status: "pending",
      message: expect.stringMatching(/answered HTTP 500: “receiver is down”\. It will be tried again in 50 ms\.$/),
    });

    await vi.waitFor(() => expect(got()).toHaveLength(2), { timeout: 10_000, interval: 50 });
    const ids = got().map((r) => r.headers["webhook-id"]);
    expect(ids[0]).toMatch(/^msg_/);
    expect(ids[1]).toBe(ids[0]);
    for (const { body: raw, headers } of got())
      expect(() => new Webhook(SECRET).verify(raw, headers as Record<string, string>)).not.toThrow();

    const list = await vi.waitFor(
      async () => {
        const answer = await deliveries(key, id);
        expect(answer.body.deliveries[0].state).toBe("delivered");
        return answer;
      },
      { timeout: 10_000, interval: 50 },
    );
    expect(list.status).toBe(200);
    expect(list.body.deliveries).toHaveLength(1);
    const [delivery] = list.body.deliveries;
    expect(delivery).toMatchObject({
      webhook_id: ids[0],
      type: "invoice.status_changed",
      simulated: true,
      status: "cancelled",
      url: expect.stringContaining("/hooks/"),
      next_attempt_at: null,
    });
    expect(delivery.attempts).toMatchObject([
      {
        attempt: 1,
        response_status: 500,
        response_body: "receiver is down",
        error: "the receiver answered HTTP 500",
        duration_ms: expect.any(Number),
      },
      { attempt: 2, response_status: 200, error: null },
    ]);
    // The first 2 KB of the answer, no more.
    expect(delivery.attempts[1].response_body).toHaveLength(2_048);
  });

  it("400 for a body that is not JSON or not an object", async () => {
    const { key } = await merchant();
    expect((await simulate(key, null, "{")).status).toBe(400);
    expect((await simulate(key, null, "[]")).body).toMatchObject({ status: 400, code: "invalid_body" });
    expect((await simulate(key, null, '"x"')).status).toBe(400);
  });

  it("401 without a key or with an unknown one", async () => {
    const { id } = await merchant();
    expect((await simulate(null, { invoice_id: id, status: "completed" })).body).toMatchObject({ status: 401, code: "unauthorized" });
    expect((await simulate("sk_test_nobody", { invoice_id: id, status: "completed" })).status).toBe(401);
  });

  it("403 for a read-only key, and for another merchant's invoice; nothing is sent", async () => {
    const own = await merchant();
    const readOnly = await merchant({ scopes: ["invoices:read"] });
    expect((await simulate(readOnly.key, { invoice_id: readOnly.id, status: "completed" })).body).toMatchObject({
      status: 403,
      code: "insufficient_scope",
    });
    expect((await simulate(own.key, { invoice_id: readOnly.id, status: "completed" })).body).toMatchObject({
      status: 403,
      code: "other_merchant",
    });
    expect(readOnly.received()).toEqual([]);
  });

  it("404 for an unknown invoice", async () => {
    const { key } = await merchant();
    for (const invoice_id of ["invoice_0190a1d2-9999-7000-8000-000000000009", "no-such-id"]) {
      expect((await simulate(key, { invoice_id, status: "completed" })).body).toMatchObject({ status: 404, code: "not_found" });
    }
  });

  it.each([
    ["a missing invoice_id", (id: string) => ({ status: "completed", _: id }), "/invoice_id"],
    ["a missing status", (id: string) => ({ invoice_id: id }), "/status"],
    ["an invalid status", (id: string) => ({ invoice_id: id, status: "paid" }), "/status"],
    ["archived, which no change sends", (id: string) => ({ invoice_id: id, status: "archived" }), "/status"],
  ])("422 for %s, with its pointer", async (_, body, pointer) => {
    const { key, id, received: got } = await merchant();
    const answer = await simulate(key, body(id));
    expect(answer.status).toBe(422);
    expect(answer.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual([pointer]);
    expect(got()).toEqual([]);
  });

  it("422 for an archived invoice, which never sends a webhook; nothing is sent or logged", async () => {
    const { key, id, received: got } = await merchant({ status: "archived" });
    const answer = await simulate(key, { invoice_id: id, status: "completed" });
    expect(answer.status).toBe(422);
    expect(answer.body).toMatchObject({ code: "archived_invoice" });
    expect(answer.body.errors).toEqual([{ pointer: "/invoice_id", code: "archived_invoice", detail: expect.stringContaining("archived") }]);
    expect(got()).toEqual([]);
    expect((await deliveries(key, id)).body).toEqual({ deliveries: [] });
  });

  it("415 for a body that is not sent as application/json", async () => {
    const { key, id, received: got } = await merchant();
    const response = await simulateRoute.POST(
      new Request("http://sandbox.test/sandbox/api/v1/webhooks/simulate", {
        method: "POST",
        headers: { "api-key": key, "content-type": "text/plain;charset=UTF-8" },
        body: JSON.stringify({ invoice_id: id, status: "completed" }),
      }),
      { params: Promise.resolve({}) },
    );
    expect(response.status).toBe(415);
    expect(got()).toEqual([]);
  });

  it("422 for an invoice without a callback URL", async () => {
    const { key, id } = await merchant({ callback: false });
    const answer = await simulate(key, { invoice_id: id, status: "completed" });
    expect(answer.status).toBe(422);
    expect(answer.body.errors).toEqual([
      { pointer: "/invoice_id", code: "no_callback_url", detail: expect.stringContaining("without a callback URL") },
    ]);
    expect((await deliveries(key, id)).body).toEqual({ deliveries: [] });
  });
});

describe("GET /invoices/{id}/webhook-deliveries", () => {
  it("the same 401 / 403 / 404 as reading the invoice", async () => {
    const own = await merchant();
    const other = await merchant();
    expect((await deliveries("sk_test_nobody", own.id)).status).toBe(401);
    expect((await deliveries(own.key, other.id)).status).toBe(403);
    expect((await deliveries(own.key, "invoice_0190a1d2-9999-7000-8000-000000000009")).status).toBe(404);
    expect((await deliveries(own.key, "%%")).status).toBe(404);
  });
});
