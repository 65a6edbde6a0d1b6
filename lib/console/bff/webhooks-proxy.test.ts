import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { onSecondProvider } from "@/test/on-second-provider";

/**
 * The console's webhook routes against a provider that is not our sandbox (test/second-provider.ts): the
 * simulation passes through in its own words and is audited; the deliveries extension, which it does not
 * offer, is "not offered" rather than an error; its webhooks, in its own signature scheme, reach the inbox as
 * "not verified".
 */
type Route = (request: Request, context: { params: Promise<unknown> }) => Promise<Response>;
const provider = onSecondProvider();
let simulate: Route;
let inboxPost: Route;
let inboxGet: Route;
let admin: string;
/** A tiny relay standing in for the console's address: what the provider posts is handed to the inbox route. */
let relay: Server;

beforeAll(async () => {
  ({ POST: simulate } = await import("@/app/api/webhooks/simulate/route"));
  ({ POST: inboxPost, GET: inboxGet } = await import("@/app/api/webhook-inbox/route"));
  admin = await (await import("@/lib/console/auth/signed-in-cookie")).signedInCookie("admin");
  relay = createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    const answer = await inboxPost(
      new Request("http://console.test/api/webhook-inbox", { method: "POST", body, headers: req.headers as Record<string, string> }),
      { params: Promise.resolve({}) },
    );
    res.writeHead(answer.status).end(await answer.text());
  });
  await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
});

afterAll(async () => {
  await new Promise((resolve) => relay.close(resolve));
});

async function post(body: unknown) {
  const response = await simulate(
    new Request("http://console.test/api/webhooks/simulate", {
      method: "POST",
      headers: { cookie: admin, origin: "http://console.test", "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
    { params: Promise.resolve({}) },
  );
  return { status: response.status, body: await response.json() };
}

describe("POST /api/webhooks/simulate against another provider", () => {
  it("passes the provider's answer on, and the inbox keeps its webhook as not verified (another scheme)", async () => {
    provider.settings.webhookUrl = `http://127.0.0.1:${(relay.address() as AddressInfo).port}/api/webhook-inbox`;
    const answer = await post({ invoice_id: "inv_8Hq2x", status: "completed" });
    expect(answer).toEqual({ status: 200, body: { status: "queued", message: "Test event queued for delivery." } });
    const { getDatabase } = await import("@/lib/platform/db");
    const { auditTrail } = await import("@/lib/console/audit");
    const [audited] = await auditTrail(await getDatabase(), "invoice:inv_8Hq2x");
    expect(audited).toMatchObject({
      action: "webhook.simulate",
      actorEmail: expect.stringMatching(/^admin-/),
      detail: { status: "completed", outcome: "sent", answer: { status: "queued" } },
    });

    const list = await inboxGet(new Request("http://console.test/api/webhook-inbox?invoice_id=inv_8Hq2x", { headers: { cookie: admin } }), {
      params: Promise.resolve({}),
    });
    const { entries } = await list.json();
    expect(entries[0]).toMatchObject({
      verdict: "not_verified",
      invoice_id: "inv_8Hq2x",
      event_type: "invoice.updated",
      headers: { "x-shop-signature": expect.stringMatching(/^sha256=/) },
    });
  });

  it("checks the request with the contract first: an invalid status is a 422 and nothing is sent", async () => {
    const before = provider.requests.length;
    const answer = await post({ invoice_id: "inv_8Hq2x", status: "paid" });
    expect(answer.status).toBe(422);
    expect(answer.body.errors).toEqual([expect.objectContaining({ pointer: "/status" })]);
    expect(provider.requests.length).toBe(before);
  });

  it("an unknown invoice is the provider's 404, in its words, and the attempt is audited", async () => {
    const answer = await post({ invoice_id: "inv_nope", status: "completed" });
    expect(answer.status).toBe(404);
    expect(answer.body.detail).toContain("No invoice inv_nope");
    const { getDatabase } = await import("@/lib/platform/db");
    const { auditTrail } = await import("@/lib/console/audit");
    const [entry] = await auditTrail(await getDatabase(), "invoice:inv_nope");
    expect(entry).toMatchObject({ action: "webhook.simulate", detail: { status: "completed", outcome: "failed", upstream_status: 404 } });
  });

  it("the deliveries extension, which this provider does not offer, is null: not offered", async () => {
    const { upstream } = await import("@/lib/console/upstream/client");
    expect(await upstream().listWebhookDeliveries("inv_8Hq2x")).toBeNull();
  });

  it("nor the deliveries log: GET /api/webhook-deliveries says this provider offers none, and the invoice list still answers", async () => {
    const { GET: deliveries } = await import("@/app/api/webhook-deliveries/route");
    const answer = await deliveries(
      new Request("http://console.test/api/webhook-deliveries?state=failed", { headers: { cookie: admin } }),
      {
        params: Promise.resolve({}),
      },
    );
    expect(answer.status).toBe(404);
    expect(await answer.json()).toMatchObject({
      code: "not_found",
      detail: expect.stringContaining("This provider offers no deliveries log"),
    });
    const { GET: invoices } = await import("@/app/api/invoices/route");
    const list = await invoices(new Request("http://console.test/api/invoices", { headers: { cookie: admin } }), {
      params: Promise.resolve({}),
    });
    expect(list.status).toBe(200);
  });
});
