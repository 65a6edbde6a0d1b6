import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandboxOverHttp } from "@/test/sandbox-over-http";

/**
 * GET /api/webhook-deliveries and POST /api/webhook-deliveries/{id}/redeliver against the sandbox, reached over real
 * HTTP as any provider: behind the session and webhooks:manage, the query checked before anything is sent, the
 * provider's refusals passed on, every resend audited under its invoice.
 */
type Route = (request: Request, context: { params: Promise<unknown> }) => Promise<Response>;
let sandbox: Awaited<ReturnType<typeof startSandboxOverHttp>>;
let merchantKey = "";
let hooked = "";
let list: Route;
let redeliver: Route;
const cookies: Record<string, string> = {};

beforeAll(async () => {
  sandbox = await startSandboxOverHttp(() => merchantKey);
  process.env.INVOICING_API_URL = sandbox.url;
  process.env.INVOICING_API_KEY = "sk_test_deliveries_routes";
  process.env.SANDBOX_ENABLED = "true";
  process.env.SANDBOX_CALLBACK_ALLOWLIST = "127.0.0.1";
  const { getDatabase } = await import("@/lib/platform/db");
  const { createTestMerchant } = await import("@/test/sandbox-fixtures");
  const merchant = await createTestMerchant(await getDatabase(), [
    { createdAt: new Date("2026-01-01T00:00:00Z"), status: "pending", callbackUrl: `${sandbox.hooksUrl}/deliveries` },
  ]);
  merchantKey = merchant.key;
  hooked = `invoice_${merchant.invoices[0].id}`;
  ({ GET: list } = await import("@/app/api/webhook-deliveries/route"));
  ({ POST: redeliver } = await import("@/app/api/webhook-deliveries/[id]/redeliver/route"));
  const { signedInCookie } = await import("@/lib/console/auth/signed-in-cookie");
  for (const role of ["admin", "finance", "support", "viewer"]) cookies[role] = await signedInCookie(role as "admin");
  const sent = await fetch(`${sandbox.url}/webhooks/simulate`, {
    method: "POST",
    body: JSON.stringify({ invoice_id: hooked, status: "completed" }),
  });
  expect(sent.status).toBe(200);
});
afterAll(() => sandbox.close());

const get = async (query: string, role = "admin") => {
  const answer = await list(new Request(`http://console.test/api/webhook-deliveries${query}`, { headers: { cookie: cookies[role] } }), {
    params: Promise.resolve({}),
  });
  return { status: answer.status, body: await answer.json() };
};
const post = async (id: string, role = "admin") => {
  const answer = await redeliver(
    new Request(`http://console.test/api/webhook-deliveries/${encodeURIComponent(id)}/redeliver`, {
      method: "POST",
      headers: { cookie: cookies[role], origin: "http://console.test" },
    }),
    { params: Promise.resolve({ id }) },
  );
  return { status: answer.status, body: await answer.json() };
};
const audited = async () => {
  const { getDatabase } = await import("@/lib/platform/db");
  const { auditTrail } = await import("@/lib/console/audit");
  return (await auditTrail(await getDatabase(), `invoice:${hooked}`)).filter((e) => e.action === "webhook.redeliver");
};

describe("GET /api/webhook-deliveries", () => {
  it("answers the provider's page of deliveries, filtered as asked", async () => {
    const { status, body } = await get(`?state=delivered&invoice_id=${hooked}`);
    expect(status).toBe(200);
    expect(body.pagination).toMatchObject({ current_page: 1, total_records: 1 });
    expect(body.items[0]).toMatchObject({
      invoice_id: hooked,
      type: "invoice.status_changed",
      state: "delivered",
      attempts: [{ attempt: 1, response_status: 200, redelivery: false }],
    });
    expect((await get(`?state=failed&invoice_id=${hooked}`)).body.items).toEqual([]);
  });

  it.each([
    ["?state=sent", "/state"],
    ["?page_size=101", "/page_size"],
    ["?created_after=2026-02-30", "/created_after"],
  ])("422 for %s, naming %s, before anything is sent", async (query, pointer) => {
    const { status, body } = await get(query);
    expect(status).toBe(422);
    expect(body.errors.map((e: { pointer: string }) => e.pointer)).toEqual([pointer]);
  });

  it.each(["finance", "support", "viewer"])("403 for %s: only webhooks:manage reads the log", async (role) => {
    expect((await get("", role)).body).toMatchObject({ status: 403, code: "forbidden" });
  });
});

describe("POST /api/webhook-deliveries/{id}/redeliver", () => {
  it("202 with the delivery and its new attempt, audited under the invoice, named by its order id", async () => {
    const { getDatabase } = await import("@/lib/platform/db");
    const { upstream } = await import("@/lib/console/upstream/client");
    const { reindexInvoice } = await import("@/lib/console/mirror");
    await reindexInvoice(await getDatabase(), upstream(), hooked);
    const { order_id } = await upstream().getInvoice(hooked);
    expect(order_id).toMatch(/\S/);
    const before = (await audited()).length;
    const webhookId = (await get(`?invoice_id=${hooked}`)).body.items[0].webhook_id;
    const { status, body } = await post(webhookId);
    expect(status).toBe(202);
    expect(body).toMatchObject({ webhook_id: webhookId, state: "delivered" });
    expect(body.attempts.at(-1)).toMatchObject({ response_status: 200, redelivery: true });
    const entries = await audited();
    expect(entries).toHaveLength(before + 1);
    expect(entries.at(-1)).toMatchObject({
      actorEmail: expect.stringMatching(/^admin-/),
      detail: { webhook_id: webhookId, order_id, outcome: "sent", upstream_status: 202, answer: { response_status: 200 } },
    });
  });

  it("the provider's 404 for an unknown delivery is passed on, and the attempt is audited as failed", async () => {
    const unknown = "msg_0190a1d2-9999-7000-8000-000000000009";
    const { status, body } = await post(unknown);
    expect(status).toBe(404);
    expect(body.code).toBe("not_found");
    const { getDatabase } = await import("@/lib/platform/db");
    const { auditTrail } = await import("@/lib/console/audit");
    expect(await auditTrail(await getDatabase(), `webhook:${unknown}`)).toMatchObject([
      { action: "webhook.redeliver", detail: { outcome: "failed", upstream_status: 404 } },
    ]);
  });

  it("403 for a role without webhooks:manage; nothing is sent", async () => {
    const webhookId = (await get(`?invoice_id=${hooked}`)).body.items[0].webhook_id;
    const attempts = (await get(`?invoice_id=${hooked}`)).body.items[0].attempts.length;
    expect((await post(webhookId, "support")).body).toMatchObject({ status: 403 });
    expect((await get(`?invoice_id=${hooked}`)).body.items[0].attempts).toHaveLength(attempts);
  });
});
