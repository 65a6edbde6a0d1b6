import { describe, expect, it, vi } from "vitest";
import { useConsoleServer } from "./use-console-server";

/**
 * The webhook inbox over real HTTP against the console's own server: a seeded invoice's simulated webhook
 * goes from the sandbox to the inbox (the seed's callback is the console's own address, whatever its port),
 * and an oversized upload gets its 413 rather than a reset connection.
 */
const server = useConsoleServer();
const KEY = { "api-key": "sk_test_demo_full" };

describe("the webhook inbox on a running console", () => {
  it("a seeded invoice's simulated webhook arrives in the inbox, signature valid, and the sandbox logs the attempt", async () => {
    const { url, sessions } = server();
    const list = await fetch(`${url}/sandbox/api/v1/invoices?status=pending&page_size=100`, { headers: KEY }).then((r) => r.json());
    const invoice = list.items.find((i: { callback_url: string | null }) => i.callback_url);
    expect(invoice.callback_url).toBe(`${url}/api/webhook-inbox`);
    const { cursor } = await fetch(`${url}/api/webhook-inbox?limit=1`, { headers: { cookie: sessions.roles.admin } }).then((r) => r.json());

    const answer = await fetch(`${url}/api/webhooks/simulate`, {
      method: "POST",
      headers: { cookie: sessions.roles.admin, origin: url, "content-type": "application/json" },
      body: JSON.stringify({ invoice_id: invoice.invoice_id, status: "completed" }),
    });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({
      status: "delivered",
      message: expect.stringContaining(`${url}/api/webhook-inbox: the receiver answered HTTP 200`),
    });

    const entry = await vi.waitFor(
      async () => {
        const { entries } = await fetch(`${url}/api/webhook-inbox?since=${cursor}`, { headers: { cookie: sessions.roles.admin } }).then(
          (r) => r.json(),
        );
        expect(entries).toHaveLength(1);
        return entries[0];
      },
      { timeout: 10_000, interval: 200 },
    );
    expect(entry).toMatchObject({ verdict: "valid", invoice_id: invoice.invoice_id, event_type: "invoice.status_changed" });
    expect(JSON.parse(entry.body).data).toMatchObject({ simulated: true, invoice: { status: "completed" }, previous_status: "pending" });

    const { deliveries } = await fetch(`${url}/sandbox/api/v1/invoices/${invoice.invoice_id}/webhook-deliveries`, { headers: KEY }).then(
      (r) => r.json(),
    );
    expect(deliveries[0]).toMatchObject({
      webhook_id: entry.message_id,
      state: "delivered",
      simulated: true,
      attempts: [{ attempt: 1, response_status: 200, error: null }],
    });
    expect(JSON.parse(deliveries[0].attempts[0].response_body)).toMatchObject({ received: true, verdict: "valid", id: entry.id });
  });

  it("an upload far over the size cap is answered 413 with a problem, and the console stays healthy", async () => {
    const { url } = server();
    const response = await fetch(`${url}/api/webhook-inbox`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "x".repeat(3_000_000),
    });
    expect(response.status).toBe(413);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    // Over REQUEST_MAX_BODY_BYTES the server refuses it before reading (scripts/server/request-body.mjs); between the
    // inbox's own cap and that, the inbox keeps its start, "not verified" (lib/console/webhooks/inbox.test.ts).
    expect(await response.json()).toMatchObject({ code: "body_too_large", status: 413 });
    expect((await fetch(`${url}/api/health`)).status).toBe(200);
  });
});
