import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

/** GET /webhook-deliveries and POST /webhook-deliveries/{id}/redeliver, sent for real to a local receiver. */

process.env.SANDBOX_WEBHOOK_RETRY_SCHEDULE = "1500ms,300ms";
process.env.SANDBOX_CALLBACK_ALLOWLIST = "127.0.0.1";

const SECRET = "whsec_dGVzdA=="; // the test merchant's (test/sandbox-fixtures.ts)
type Received = { headers: IncomingHttpHeaders; body: string };
const received = new Map<string, Received[]>();
/** What the receiver answers on each path, one status per request; the last one repeats. */
const answers = new Map<string, number[]>();
let receiver: Server;
let hookUrl: string;

const listRoute = await import("@/app/sandbox/api/v1/webhook-deliveries/route");
const redeliverRoute = await import("@/app/sandbox/api/v1/webhook-deliveries/[delivery_id]/redeliver/route");
const invoiceRoute = await import("@/app/sandbox/api/v1/invoices/[id]/route");
const { getSandboxDb } = await import("@/lib/sandbox");
const { createTestMerchant } = await import("@/test/sandbox-fixtures");
const { CONSOLE_INBOX_MARKER } = await import("@/lib/sandbox/callback-url");
const { DEMO_MERCHANT_ID } = await import("@/lib/sandbox/keys");

beforeAll(async () => {
  receiver = createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    const log = received.get(req.url!) ?? [];
    received.set(req.url!, [...log, { headers: req.headers, body }]);
    const statuses = answers.get(req.url!) ?? [200];
    const status = statuses[Math.min(log.length, statuses.length - 1)];
    res.writeHead(status, { "content-type": "text/plain" }).end(status === 200 ? "thanks" : `down ${"!".repeat(3_000)}`);
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  // Opened (migrated and seeded) here, within the hook's time, rather than inside the first test's.
  await getSandboxDb();
});
afterAll(() => new Promise((resolve) => receiver.close(resolve)));

/** A merchant of its own whose invoices call back to their own paths of the receiver, answering `statuses`. */
async function merchant(invoiceCount = 1, statuses = [200], scopes?: string[]) {
  const db = await getSandboxDb();
  const paths = Array.from({ length: invoiceCount }, () => `/hooks/${randomUUID()}`);
  for (const path of paths) answers.set(path, statuses);
  const { key, invoices } = await createTestMerchant(
    db,
    paths.map((path, i) => ({ createdAt: new Date(Date.UTC(2026, 4, 1, 10, i)), status: "pending", callbackUrl: `${hookUrl}${path}` })),
    scopes,
  );
  return { key, ids: invoices.map((i) => `invoice_${i.id}`), received: (i = 0) => received.get(paths[i]) ?? [] };
}

async function patch(key: string, id: string, status: string) {
  const response = await invoiceRoute.PATCH(
    new Request(`http://sandbox.test/sandbox/api/v1/invoices/${id}`, {
      method: "PATCH",
      headers: { "api-key": key, "content-type": "application/json" },
      body: JSON.stringify({ status }),
    }),
    { params: Promise.resolve({ id }) },
  );
  expect(response.status).toBe(200);
}

async function list(key: string | null, query = "") {
  const response = await listRoute.GET(
    new Request(`http://sandbox.test/sandbox/api/v1/webhook-deliveries${query}`, { headers: key ? { "api-key": key } : {} }),
    { params: Promise.resolve({}) },
  );
  return { status: response.status, body: await response.json() };
}

async function redeliver(key: string | null, deliveryId: string) {
  const response = await redeliverRoute.POST(
    new Request(`http://sandbox.test/sandbox/api/v1/webhook-deliveries/${deliveryId}/redeliver`, {
      method: "POST",
      headers: key ? { "api-key": key } : {},
    }),
    { params: Promise.resolve({ delivery_id: deliveryId }) },
  );
  return { status: response.status, body: await response.json() };
}

/** Waits until the merchant's only delivery is in `state`, and answers it. */
const settled = (key: string, state: string) =>
  vi.waitFor(
    async () => {
      const { body } = await list(key);
      expect(body.items[0]?.state).toBe(state);
      return body.items[0];
    },
    { timeout: 10_000, interval: 20 },
  );

describe("a receiver that answers 500 twice, then 200", () => {
  it("sees the delivery retrying, then delivered; a resend arrives with the same webhook-id and verifies with the merchant's secret", async () => {
    const { key, ids, received: got } = await merchant(1, [500, 500, 200]);
    await patch(key, ids[0], "completed");

    const retrying = await settled(key, "retrying");
    expect(retrying.next_attempt_at).not.toBeNull();
    expect(retrying.attempts[0]).toMatchObject({ attempt: 1, response_status: 500, error: "the receiver answered HTTP 500" });
    // The first 2 KB of what the receiver said.
    expect(retrying.attempts[0].response_body).toHaveLength(2_048);

    const delivered = await settled(key, "delivered");
    expect(delivered).toMatchObject({ invoice_id: ids[0], type: "invoice.status_changed", status: "completed", simulated: false });
    expect(delivered.next_attempt_at).toBeNull();
    expect(delivered.attempts.map((a: { response_status: number }) => a.response_status)).toEqual([500, 500, 200]);
    expect(got()).toHaveLength(3);

    // Timestamps are whole seconds: the resend's must be a later one.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const { status, body } = await redeliver(key, delivered.webhook_id);
    expect(status).toBe(202);
    expect(body).toMatchObject({ webhook_id: delivered.webhook_id, state: "delivered" });
    expect(body.attempts).toHaveLength(4);
    expect(body.attempts[3]).toMatchObject({ attempt: 4, response_status: 200, response_body: "thanks", error: null, redelivery: true });

    const all = got();
    expect(all).toHaveLength(4);
    const [first, resent] = [all[2], all[3]];
    expect(resent.headers["webhook-id"]).toBe(delivered.webhook_id);
    expect(resent.body).toBe(first.body);
    expect(Number(resent.headers["webhook-timestamp"])).toBeGreaterThan(Number(first.headers["webhook-timestamp"]));
    expect(resent.headers["webhook-signature"]).not.toBe(first.headers["webhook-signature"]);
    const verified = new Webhook(SECRET).verify(resent.body, resent.headers as Record<string, string>);
    expect(verified).toMatchObject({ type: "invoice.status_changed", data: { invoice: { invoice_id: ids[0], status: "completed" } } });
    expect(() => new Webhook("whsec_b3RoZXI=").verify(resent.body, resent.headers as Record<string, string>)).toThrow();
  });
});

describe("POST /webhook-deliveries/{id}/redeliver", () => {
  it("leaves a retrying delivery's schedule as it was when the resend fails too, and delivers it when the resend gets a 2xx", async () => {
    const { key, ids, received: got } = await merchant(1, [500, 500, 500, 500]);
    await patch(key, ids[0], "cancelled");
    const before = await settled(key, "retrying");

    const failed = await redeliver(key, before.webhook_id);
    expect(failed.status).toBe(202);
    // Unless the dispatcher's next scheduled attempt came first, the schedule is the one it had.
    if (failed.body.attempts.filter((a: { redelivery: boolean }) => !a.redelivery).length === 1) {
      expect(failed.body).toMatchObject({ state: "retrying", next_attempt_at: before.next_attempt_at });
    }
    expect(failed.body.attempts.filter((a: { redelivery: boolean }) => a.redelivery)).toMatchObject([
      { response_status: 500, redelivery: true },
    ]);

    // The scheduled tries still happen: two retries after the first attempt, then failed.
    const done = await settled(key, "failed");
    expect(done.attempts.filter((a: { redelivery: boolean }) => !a.redelivery)).toHaveLength(3);
    expect(got()).toHaveLength(4);

    answers.set(new URL(done.url).pathname, [200]);
    const fixed = await redeliver(key, done.webhook_id);
    expect(fixed.status).toBe(202);
    expect(fixed.body).toMatchObject({ state: "delivered", next_attempt_at: null });
    expect(fixed.body.attempts.at(-1)).toMatchObject({ attempt: 5, response_status: 200, redelivery: true });
    expect((await list(key, "?state=failed")).body.items).toEqual([]);
  });

  it("404 for an unknown or malformed id, 403 for another merchant's delivery and for a key without webhooks:write, 401 without a key", async () => {
    const own = await merchant();
    const other = await merchant();
    await patch(other.key, other.ids[0], "expired");
    const theirs = (await settled(other.key, "delivered")).webhook_id;
    const readOnly = await createTestMerchant(await getSandboxDb(), [], ["invoices:read"]);

    for (const unknown of [`msg_${randomUUID()}`, "nope", "msg_"]) {
      expect((await redeliver(own.key, unknown)).body).toMatchObject({ status: 404, code: "not_found" });
    }
    expect((await redeliver(own.key, theirs)).body).toMatchObject({ status: 403, code: "other_merchant" });
    const scope = await redeliver(readOnly.key, theirs);
    expect(scope.body).toMatchObject({ status: 403, code: "insufficient_scope", detail: expect.stringContaining("webhooks:write") });
    expect((await redeliver(null, theirs)).status).toBe(401);
    expect(other.received()).toHaveLength(1);
  });
});

describe("GET /webhook-deliveries", () => {
  it("lists the merchant's own deliveries newest first, paged, filtered by state, invoice, event and creation time", async () => {
    const { key, ids } = await merchant(3);
    const stranger = await merchant();
    await patch(stranger.key, stranger.ids[0], "completed");
    for (const id of ids) await patch(key, id, "completed");
    await vi.waitFor(async () => expect((await list(key, "?state=delivered")).body.pagination.total_records).toBe(3), {
      timeout: 10_000,
      interval: 20,
    });

    const all = await list(key);
    expect(all.status).toBe(200);
    expect(all.body.items.map((d: { invoice_id: string }) => d.invoice_id)).toEqual([...ids].reverse());
    const page2 = await list(key, "?page_size=2&page=2");
    expect(page2.body).toMatchObject({
      items: [{ invoice_id: ids[0] }],
      pagination: { current_page: 2, page_size: 2, total_pages: 2, total_records: 3, has_next: false, has_previous: true },
    });
    expect((await list(key, "?page=9")).body).toMatchObject({ items: [], pagination: { total_records: 3 } });

    expect((await list(key, `?invoice_id=${ids[1]}`)).body.items.map((d: { invoice_id: string }) => d.invoice_id)).toEqual([ids[1]]);
    expect((await list(key, `?invoice_id=${ids[1].slice("invoice_".length)}`)).body.items).toHaveLength(1);
    expect((await list(key, `?invoice_id=${stranger.ids[0]}`)).body.items).toEqual([]);
    expect((await list(key, "?event=invoice.status_changed")).body.items).toHaveLength(3);
    expect((await list(key, "?state=failed")).body.items).toEqual([]);
    expect((await list(key, "?state=pending")).body.items).toEqual([]);

    const newest = all.body.items[0].created_at;
    expect((await list(key, `?created_before=${encodeURIComponent(newest)}`)).body.items).toHaveLength(2);
    expect((await list(key, `?created_after=${encodeURIComponent(newest)}`)).body.items).toEqual([]);
    expect((await list(key, "?created_after=2000-01-01&created_before=2000-01-02")).body.items).toEqual([]);
  });

  it.each([
    ["?state=sent", "/state"],
    ["?event=invoice.paid", "/event"],
    ["?invoice_id=nope", "/invoice_id"],
    ["?page_size=101", "/page_size"],
    ["?page=0", "/page"],
    ["?created_after=2026-13-01", "/created_after"],
    ["?created_after=2026-02-01&created_before=2026-01-01", "/created_before"],
  ])("422 for %s, naming %s", async (query, pointer) => {
    const { key } = await merchant(0);
    const { status, body } = await list(key, query);
    expect(status).toBe(422);
    expect(body.errors.map((e: { pointer: string }) => e.pointer)).toEqual([pointer]);
  });

  it("401 without a key, 403 for a key without invoices:read", async () => {
    expect((await list(null)).body).toMatchObject({ status: 401, code: "unauthorized" });
    const { key } = await merchant(0, [200], ["webhooks:write"]);
    expect((await list(key)).body).toMatchObject({
      status: 403,
      code: "insufficient_scope",
      detail: expect.stringContaining("invoices:read"),
    });
  });
});

describe("the demo's seeded failures", () => {
  it("are five failed deliveries to the inbox, 503 on every attempt of the schedule, kept with its marker and shown at its address now", async () => {
    const { body } = await list("sk_test_demo_full", "?state=failed");
    expect(body.items).toHaveLength(5);
    const { env } = await import("@/lib/platform/env");
    for (const delivery of body.items) {
      expect(delivery).toMatchObject({ state: "failed", type: "invoice.status_changed", status: "completed", simulated: false });
      expect(delivery.url).toBe(`${env().consoleOrigin}/api/webhook-inbox`);
      // Every attempt of the schedule in force when the database was seeded: a shared PostgreSQL is seeded once, by
      // whichever test file opened it first, under its own schedule.
      const attempts = delivery.attempts.map((a: { attempt: number; response_status: number }) => [a.attempt, a.response_status]);
      expect(attempts.length).toBeGreaterThan(0);
      expect(attempts).toEqual(attempts.map((_: unknown, i: number) => [i + 1, 503]));
    }
    // Stored as the marker, so that a later start on another port or PUBLIC_URL still resends to its inbox.
    const db = await getSandboxDb();
    const stored = (await db.execute(
      sql`select distinct url from sandbox.webhook_deliveries where merchant_id = ${DEMO_MERCHANT_ID} and state = 'failed'`,
    )) as unknown as { rows: { url: string }[] };
    expect(stored.rows).toEqual([{ url: CONSOLE_INBOX_MARKER }]);
  });

  it("beside twelve that arrived, every third after one 503, so the log shows each state a receiver can leave", async () => {
    const { body } = await list("sk_test_demo_full", "?state=delivered&page_size=100");
    const seeded = body.items.filter((d: { simulated: boolean; status: string }) => !d.simulated && d.status === "completed");
    const answers = seeded.map((d: { attempts: { response_status: number }[] }) => d.attempts.map((a) => a.response_status));
    expect(answers.filter((a: number[]) => a.join() === "200")).toHaveLength(8);
    expect(answers.filter((a: number[]) => a.join() === "503,200")).toHaveLength(4);
  });

  it("a live change to an invoice calling back to the inbox stores the marker too, and lists it at the inbox's address now", async () => {
    const db = await getSandboxDb();
    const { key, invoices } = await createTestMerchant(db, [
      { createdAt: new Date(Date.UTC(2026, 4, 1, 10)), status: "pending", callbackUrl: CONSOLE_INBOX_MARKER },
    ]);
    await patch(key, `invoice_${invoices[0].id}`, "cancelled");
    const stored = (await db.execute(sql`select url from sandbox.webhook_deliveries where invoice_id = ${invoices[0].id}`)) as unknown as {
      rows: { url: string }[];
    };
    expect(stored.rows).toEqual([{ url: CONSOLE_INBOX_MARKER }]);
    const { env } = await import("@/lib/platform/env");
    const { body } = await list(key);
    expect(body.items.map((d: { url: string }) => d.url)).toEqual([`${env().consoleOrigin}/api/webhook-inbox`]);
    // One made before deliveries kept the marker holds the address of its moment: the migration gives it the marker.
    await db.execute(
      sql`update sandbox.webhook_deliveries set url = 'http://127.0.0.1:3999/api/webhook-inbox' where invoice_id = ${invoices[0].id}`,
    );
    await db.execute(sql.raw(readFileSync("drizzle/0027_inbox_delivery_marker.sql", "utf8")));
    const migrated = (await db.execute(
      sql`select url from sandbox.webhook_deliveries where invoice_id = ${invoices[0].id}`,
    )) as unknown as { rows: { url: string }[] };
    expect(migrated.rows).toEqual([{ url: CONSOLE_INBOX_MARKER }]);
  });
});
