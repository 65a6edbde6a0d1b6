import { randomUUID } from "node:crypto";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { webhookAttempts, webhookDeliveries } from "@/lib/sandbox/schema";
import type { WireInvoice } from "./wire";

/**
 * Graceful shutdown of the webhook dispatcher: what a stopping instance claimed is handed back at
 * once, so another instance sends it in its next pass instead of after the claim's 2-minute lease.
 */

process.env.SANDBOX_CALLBACK_ALLOWLIST = "127.0.0.1";

const { getSandboxDb } = await import("@/lib/sandbox");
const { createTestMerchant } = await import("@/test/sandbox-fixtures");
const { formatInvoiceId } = await import("./ids");
const { createWebhookDispatcher, deliverDueWebhooks, enqueueStatusWebhook, webhookConfig } = await import("./webhooks");

let receiver: Server;
let hookUrl: string;
/** Requests the receiver got, and the answers it is still holding back (the stopping instance's attempt). */
const got: string[] = [];
const held: ServerResponse[] = [];
let hold = true;

beforeAll(async () => {
  receiver = createServer(async (req, res) => {
    for await (const chunk of req) void chunk;
    got.push(String(req.headers["webhook-id"]));
    if (hold) held.push(res);
    else res.writeHead(200).end();
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const res of held) res.writeHead(200).end();
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

async function queuedDelivery() {
  const db = await getSandboxDb();
  const { merchantId, invoices } = await createTestMerchant(db, [{ createdAt: new Date("2026-05-01T10:00:00Z"), status: "pending" }]);
  const invoice = {
    invoice_id: formatInvoiceId(invoices[0].id),
    callback_url: `${hookUrl}/hook/${randomUUID()}`,
    status: "cancelled",
  } as WireInvoice;
  const id = await db.transaction((tx) => enqueueStatusWebhook(tx, { merchantId, invoice, previousStatus: "pending", simulated: false }));
  const row = async () => (await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id!)))[0];
  return { db, id: id!, row };
}

describe("webhook dispatcher on shutdown", () => {
  it("a delivery claimed by a stopping instance is handed back and sent by another instance at once", async () => {
    const { db, id, row } = await queuedDelivery();
    const stopping = createWebhookDispatcher(async () => db, webhookConfig());
    stopping.wake();
    // The stopping instance has claimed it and its attempt is under way (the receiver holds the answer).
    await vi.waitFor(() => expect(got).toContain(`msg_${id}`), { timeout: 10_000, interval: 20 });
    const claimed = await row();
    expect(claimed.attempts).toBe(0);
    expect(claimed.nextAttemptAt!.getTime()).toBeGreaterThan(Date.now() + 60_000); // the 2-minute lease

    // On a PostgreSQL shared with other suites it may have claimed their deliveries too.
    const released = await stopping.stop(100);
    expect(released).toBeGreaterThanOrEqual(1);
    const handedBack = await row();
    expect(handedBack).toMatchObject({ state: "pending", attempts: 0 });
    expect(handedBack.nextAttemptAt!.getTime()).toBeLessThanOrEqual(Date.now() + 1_000);

    // Another instance's very next pass sends it; nothing waits for the lease to run out.
    hold = false;
    await deliverDueWebhooks(db, webhookConfig());
    const delivered = await vi.waitFor(
      async () => {
        const r = await row();
        expect(r).toMatchObject({ state: "delivered", attempts: 1 });
        return r;
      },
      { timeout: 5_000, interval: 20 },
    );
    expect(delivered.state).toBe("delivered");
    const attempts = await db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, id));
    expect(attempts).toMatchObject([{ attempt: 1, responseStatus: 200, error: null }]);
  });

  it("a stopped dispatcher claims nothing more, whatever wakes it", async () => {
    const { db } = await queuedDelivery();
    const getDb = vi.fn(async () => db);
    const dispatcher = createWebhookDispatcher(getDb, webhookConfig());
    expect(await dispatcher.stop(100)).toBe(0);
    dispatcher.wake();
    await new Promise((resolve) => setTimeout(resolve, 300));
    // It never even went to the database, so it cannot have claimed the due delivery.
    expect(getDb).not.toHaveBeenCalled();
  });

  it("a dispatcher whose attempts end within the grace hands nothing back: their outcome is recorded", async () => {
    hold = false;
    const { db, row } = await queuedDelivery();
    const dispatcher = createWebhookDispatcher(async () => db, webhookConfig());
    dispatcher.wake();
    await vi.waitFor(async () => expect((await row()).attempts).toBe(1), { timeout: 10_000, interval: 20 });
    expect(await dispatcher.stop(2_000)).toBe(0);
    expect(await row()).toMatchObject({ state: "delivered", attempts: 1 });
  });
});
