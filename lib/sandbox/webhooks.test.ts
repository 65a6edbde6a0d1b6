import { randomUUID } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { asc, eq, inArray } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { Db } from "@/lib/platform/db";
import { webhookAttempts, webhookDeliveries } from "@/lib/sandbox/schema";

/** The sandbox's status webhooks, sent for real to a local receiver over HTTP. */

process.env.SANDBOX_WEBHOOK_RETRY_SCHEDULE = "50ms,100ms";
process.env.SANDBOX_CALLBACK_ALLOWLIST = "127.0.0.1";

const SECRET = "whsec_dGVzdA=="; // the test merchant's (test-fixtures.ts)
type Received = { headers: IncomingHttpHeaders; body: string };
/** What the receiver got, by path: each test's invoice has a callback URL of its own. */
const received = new Map<string, Received[]>();
/** What the receiver answers on a path, one status per request; the last one repeats. */
let answers: number[] = [200];
let receiver: Server;
let hookUrl: string;

const { PATCH } = await import("@/app/sandbox/api/v1/invoices/[id]/route");
const { getSandboxDb } = await import("@/lib/sandbox");
const { createTestMerchant } = await import("@/test/sandbox-fixtures");
const { deliverDueWebhooks, webhookConfig } = await import("./webhooks");

beforeAll(async () => {
  receiver = createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    const log = received.get(req.url!) ?? [];
    received.set(req.url!, [...log, { headers: req.headers, body }]);
    res.writeHead(answers[Math.min(log.length, answers.length - 1)]).end();
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => receiver.close(resolve)));
beforeEach(() => {
  answers = [200];
});

/** A delivery and its attempts, oldest first: what the sandbox did with one webhook. */
async function webhookDeliveriesFor(db: Db, invoiceUuid: string) {
  const deliveries = await db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.invoiceId, invoiceUuid))
    .orderBy(asc(webhookDeliveries.id));
  const attempts = deliveries.length
    ? await db
        .select()
        .from(webhookAttempts)
        .where(
          inArray(
            webhookAttempts.deliveryId,
            deliveries.map((d) => d.id),
          ),
        )
        .orderBy(asc(webhookAttempts.attempt))
    : [];
  return deliveries.map((d) => ({ ...d, attemptLog: attempts.filter((a) => a.deliveryId === d.id) }));
}

async function pendingInvoice(callbackUrl: string | null = `${hookUrl}/payments/${randomUUID()}`) {
  const db = await getSandboxDb();
  const { key, invoices } = await createTestMerchant(db, [{ createdAt: new Date("2026-05-01T10:00:00Z"), status: "pending", callbackUrl }]);
  const id = invoices[0].id;
  const patch = async (status: string) => {
    const request = new Request(`http://sandbox.test/sandbox/api/v1/invoices/${id}`, {
      method: "PATCH",
      headers: { "api-key": key, "content-type": "application/json" },
      body: JSON.stringify({ status }),
    });
    const response = await PATCH(request, { params: Promise.resolve({ id }) });
    expect(response.status).toBe(200);
    return response.json();
  };
  const path = callbackUrl && new URL(callbackUrl).pathname;
  return { id, patch, deliveries: async () => webhookDeliveriesFor(db, id), received: () => (path && received.get(path)) || [] };
}

/** Waits, a bounded time, until the one delivery is done. */
async function settled(deliveries: () => ReturnType<Awaited<ReturnType<typeof pendingInvoice>>["deliveries"]>) {
  return vi.waitFor(
    async () => {
      const [delivery, ...more] = await deliveries();
      expect(more).toEqual([]);
      expect(delivery.state).not.toBe("pending");
      return delivery;
    },
    { timeout: 10_000, interval: 50 },
  );
}

describe("status webhooks", () => {
  it("a status change sends one webhook, signed with the merchant's secret, to the callback URL", async () => {
    const invoice = await pendingInvoice();
    const updated = await invoice.patch("cancelled");
    const delivery = await settled(invoice.deliveries);

    expect(delivery).toMatchObject({ state: "delivered", attempts: 1 });
    expect(invoice.received()).toHaveLength(1);
    const [{ headers, body }] = invoice.received();
    expect(headers["content-type"]).toBe("application/json");
    expect(headers["webhook-id"]).toBe(`msg_${delivery.id}`);
    const payload = new Webhook(SECRET).verify(body, headers as Record<string, string>);
    expect(payload).toEqual({
      type: "invoice.status_changed",
      timestamp: expect.any(String),
      data: { invoice: updated, previous_status: "pending", simulated: false },
    });
    expect(() => new Webhook("whsec_b3RoZXI=").verify(body, headers as Record<string, string>)).toThrow();
    expect(delivery.attemptLog).toMatchObject([{ attempt: 1, responseStatus: 200, error: null }]);
  });

  it("setting the status an invoice already has sends nothing, and neither does an invoice without a callback URL", async () => {
    const invoice = await pendingInvoice();
    await invoice.patch("pending");
    const silent = await pendingInvoice(null);
    await silent.patch("cancelled");
    expect(await invoice.deliveries()).toEqual([]);
    expect(await silent.deliveries()).toEqual([]);
  });

  it("two changes at once each report the status the other left, never the same previous status twice", async () => {
    const invoice = await pendingInvoice();
    await Promise.all([invoice.patch("cancelled"), invoice.patch("expired")]);
    const changes = (await invoice.deliveries()).map((d) => JSON.parse(d.payload).data).map((d) => [d.previous_status, d.invoice.status]);
    // In the order they were queued: the second change starts from where the first left the invoice.
    expect(changes).toHaveLength(2);
    expect(changes[0][0]).toBe("pending");
    expect(changes[1][0]).toBe(changes[0][1]);
    expect(new Set(changes.map(([, to]) => to))).toEqual(new Set(["cancelled", "expired"]));
  });

  it("a receiver that fails is retried on the schedule, with the same webhook id, until it answers 2xx", async () => {
    answers = [500, 503, 204];
    const invoice = await pendingInvoice();
    await invoice.patch("cancelled");
    const delivery = await settled(invoice.deliveries);

    expect(delivery).toMatchObject({ state: "delivered", attempts: 3 });
    expect(delivery.attemptLog.map((a) => [a.responseStatus, a.error])).toEqual([
      [500, "the receiver answered HTTP 500"],
      [503, "the receiver answered HTTP 503"],
      [204, null],
    ]);
    expect(new Set(invoice.received().map((r) => r.headers["webhook-id"]))).toEqual(new Set([`msg_${delivery.id}`]));
    for (const { body, headers } of invoice.received())
      expect(() => new Webhook(SECRET).verify(body, headers as Record<string, string>)).not.toThrow();
  });

  it("when the schedule runs out the delivery has failed, and every attempt is kept", async () => {
    answers = [500];
    const invoice = await pendingInvoice();
    await invoice.patch("cancelled");
    const delivery = await settled(invoice.deliveries);

    expect(delivery).toMatchObject({ state: "failed", attempts: 3, nextAttemptAt: null });
    expect(delivery.attemptLog.map((a) => a.responseStatus)).toEqual([500, 500, 500]);
    expect(invoice.received()).toHaveLength(3);
  });

  it("a callback URL on a private address is refused at once, never retried, and nothing is sent", async () => {
    const port = (receiver.address() as AddressInfo).port;
    const invoice = await pendingInvoice(`http://127.0.0.2:${port}/private`); // loopback, but not the allowlisted 127.0.0.1
    await invoice.patch("cancelled");
    const delivery = await settled(invoice.deliveries);

    expect(delivery).toMatchObject({ state: "failed", attempts: 1 });
    expect(delivery.attemptLog[0]).toMatchObject({ responseStatus: null, error: expect.stringContaining("SANDBOX_CALLBACK_ALLOWLIST") });
    expect(received.get("/private")).toBeUndefined();
  });

  it("dispatchers working at once send a due webhook once", async () => {
    const db = await getSandboxDb();
    const invoice = await pendingInvoice();
    await invoice.patch("cancelled"); // wakes this process's background dispatcher too
    await Promise.all([deliverDueWebhooks(db, webhookConfig()), deliverDueWebhooks(db, webhookConfig())]);
    const delivery = await settled(invoice.deliveries);

    expect(delivery).toMatchObject({ state: "delivered", attempts: 1 });
    expect(invoice.received()).toHaveLength(1);
  });

  it("a receiver that cannot be reached is retried, and the attempt says why", async () => {
    const port = (receiver.address() as AddressInfo).port;
    const closed = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const { port: free } = probe.address() as AddressInfo;
        probe.close(() => resolve(free));
      });
    });
    expect(closed).not.toBe(port);
    const invoice = await pendingInvoice(`http://127.0.0.1:${closed}/hook`);
    await invoice.patch("cancelled");
    const delivery = await settled(invoice.deliveries);

    expect(delivery).toMatchObject({ state: "failed", attempts: 3 });
    expect(delivery.attemptLog.map((a) => a.error)).toEqual(Array(3).fill(`127.0.0.1:${closed} refused the connection`));
  });
});
