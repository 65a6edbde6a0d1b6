import { randomUUID } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SessionUser } from "@/lib/console/auth/session";
import { type SearchProvider, startSearchProvider } from "@/test/search-provider";

/*
 * Changes reach search at once, without waiting for a sync: a status change made through the console, and
 * a validly signed webhook in the inbox (which makes the console re-read the invoice from the provider).
 */
const SECRET = "whsec_c2VhcmNoLWluZGV4LXRlc3Qtc2VjcmV0";
let provider: SearchProvider;
let route: typeof import("@/app/api/webhook-inbox/route");
let lib: {
  db: import("@/lib/platform/db").Db;
  searchIndex: typeof import("./store").searchIndex;
  indexInvoices: typeof import("./store").indexInvoices;
};

beforeAll(async () => {
  provider = await startSearchProvider();
  process.env.INVOICING_API_URL = provider.url;
  process.env.INVOICING_API_KEY = "sk_test_search_fresh";
  process.env.WEBHOOK_SECRET = SECRET;
  route = await import("@/app/api/webhook-inbox/route");
  const { getDatabase } = await import("@/lib/platform/db");
  const store = await import("./store");
  lib = { db: await getDatabase(), searchIndex: store.searchIndex, indexInvoices: store.indexInvoices };
});

afterAll(() => provider.close());

async function postWebhook(invoiceId: string, secret = SECRET) {
  const body = JSON.stringify({
    type: "invoice.status_changed",
    timestamp: new Date().toISOString(),
    data: { invoice: { invoice_id: invoiceId, status: "made-up" }, previous_status: "new", simulated: false },
  });
  const id = `msg_${randomUUID()}`;
  const at = new Date();
  const headers = {
    "content-type": "application/json",
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": new Webhook(secret).sign(id, at, body),
  };
  return route.POST(new Request("http://console.test/api/webhook-inbox", { method: "POST", body, headers }), {});
}

const statusOf = async (orderId: string) => (await lib.searchIndex(lib.db, orderId))[0]?.status;

describe("changes reach search at once", () => {
  it("a status changed through the console is found under its new status", async () => {
    const { changeInvoiceStatus } = await import("@/lib/console/invoices/change-status");
    const { createUpstream } = await import("@/lib/console/upstream/client");
    provider.insert({ invoice_id: "inv_console", order_id: "FRESH-1", status: "pending" });
    const { normaliseInvoice } = await import("@/lib/console/upstream/normalise");
    await lib.indexInvoices(lib.db, [normaliseInvoice(provider.invoices.get("inv_console"))!]);
    expect(await statusOf("FRESH-1")).toBe("pending");

    const user: SessionUser = {
      id: "u-support",
      email: "support@example.com",
      name: "Support",
      role: "support",
      timeZone: null,
      needsSecondFactor: false,
      sessionId: "session-of-test",
    };
    const upstream = createUpstream({ baseUrl: provider.url, apiKey: "sk_test_search_fresh", timeoutMs: 5_000 });
    await changeInvoiceStatus({ db: lib.db, upstream, user, id: "inv_console", status: "cancelled", reason: "order voided" });
    expect(await statusOf("FRESH-1")).toBe("cancelled");
  });

  it("a validly signed webhook makes the console re-read its invoice from the provider (not trust the body)", async () => {
    provider.insert({ invoice_id: "inv_hook", order_id: "FRESH-2", status: "new" });
    provider.change("inv_hook", { status: "completed" });
    provider.requests.length = 0;
    const answer = await postWebhook("inv_hook");
    expect(answer.status).toBe(200);
    expect(provider.requests).toEqual(["GET /api/v1/invoices/inv_hook"]);
    expect(await statusOf("FRESH-2")).toBe("completed");
  });

  it("a webhook whose signature fails changes nothing and asks the provider nothing", async () => {
    provider.insert({ invoice_id: "inv_forged", order_id: "FRESH-3", status: "new" });
    provider.requests.length = 0;
    const answer = await postWebhook("inv_forged", "whsec_b3RoZXItbWVyY2hhbnQtc2VjcmV0");
    expect(answer.status).toBe(401);
    expect(provider.requests).toEqual([]);
    expect(await statusOf("FRESH-3")).toBeUndefined();
  });
});
