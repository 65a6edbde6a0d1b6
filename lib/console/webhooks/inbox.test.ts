import { randomUUID } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";

/** POST /api/webhook-inbox with no session: every verdict, and the bounds that keep it from filling a disk. */

process.env.WEBHOOK_INBOX_MAX_ENTRIES = "10";
process.env.WEBHOOK_INBOX_MAX_BODY_BYTES = "2048";
process.env.WEBHOOK_INBOX_RATE_LIMIT = "40";
// No WEBHOOK_SECRET: on the embedded sandbox the inbox checks with the demo merchant's secret.
const DEMO_SECRET = "whsec_aW52b2ljZS1jb25zb2xlLWRlbW8tc2VjcmV0IQ==";

const { POST } = await import("@/app/api/webhook-inbox/route");
const { getDatabase } = await import("@/lib/platform/db");
const { listInbox } = await import("./inbox");

function payload(invoiceId = `invoice_${randomUUID()}`) {
  return JSON.stringify({
    type: "invoice.status_changed",
    timestamp: new Date().toISOString(),
    data: { invoice: { invoice_id: invoiceId, status: "cancelled" }, previous_status: "pending", simulated: true },
  });
}

function signed(body: string, options: { secret?: string; at?: Date; id?: string } = {}) {
  const id = options.id ?? `msg_${randomUUID()}`;
  const at = options.at ?? new Date();
  return {
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": new Webhook(options.secret ?? DEMO_SECRET).sign(id, at, body),
  };
}

async function post(body: BodyInit, headers: Record<string, string> = {}) {
  const response = await POST(
    new Request("http://console.test/api/webhook-inbox", {
      method: "POST",
      body,
      headers: { "content-type": "application/json", ...headers },
    }),
    {},
  );
  return { status: response.status, type: response.headers.get("content-type"), body: await response.json() };
}

async function entry(id: string) {
  const { entries } = await listInbox(await getDatabase(), { limit: 100 });
  return entries.find((e) => e.id === id)!;
}

describe("the webhook inbox's verdicts", () => {
  it("valid: signed with the secret, within 5 minutes; kept with headers, body and the invoice it names", async () => {
    const invoiceId = `invoice_${randomUUID()}`;
    const body = payload(invoiceId);
    const headers = signed(body);
    const answer = await post(body, { ...headers, cookie: "invoice-console.session_token=secret", authorization: "Bearer x" });
    expect(answer).toMatchObject({ status: 200, body: { received: true, verdict: "valid" } });
    const kept = await entry(answer.body.id);
    expect(kept).toMatchObject({
      verdict: "valid",
      reason: expect.stringContaining("Signature valid"),
      message_id: headers["webhook-id"],
      invoice_id: invoiceId,
      event_type: "invoice.status_changed",
      body,
      truncated: false,
    });
    expect(kept.headers).toMatchObject(headers);
    // A sender's credentials are not the inbox's to show.
    expect(kept.headers.cookie).toBeUndefined();
    expect(kept.headers.authorization).toBeUndefined();
  });

  it("invalid when the body was tampered with: 401 problem, and kept", async () => {
    const body = payload();
    const answer = await post(body.replace("cancelled", "completed"), signed(body));
    expect(answer).toMatchObject({
      status: 401,
      type: "application/problem+json",
      body: { code: "webhook_signature_invalid", verdict: "invalid" },
    });
    expect(await entry(answer.body.id)).toMatchObject({ verdict: "invalid", reason: expect.stringContaining("No v1 signature matches") });
  });

  it("invalid when another secret signed it", async () => {
    const body = payload();
    const answer = await post(body, signed(body, { secret: "whsec_b3RoZXItbWVyY2hhbnQtc2VjcmV0" }));
    expect(answer.body).toMatchObject({ verdict: "invalid" });
  });

  it("invalid when a signature header is missing", async () => {
    const body = payload();
    const { "webhook-timestamp": _, ...headers } = signed(body);
    expect((await post(body, headers)).body).toMatchObject({
      verdict: "invalid",
      reason: expect.stringContaining("webhook-timestamp missing"),
    });
  });

  it("too old: signed correctly more than 5 minutes ago", async () => {
    const body = payload();
    const answer = await post(body, signed(body, { at: new Date(Date.now() - 6 * 60_000) }));
    expect(answer).toMatchObject({ status: 401, body: { code: "webhook_too_old", verdict: "too_old" } });
    expect(await entry(answer.body.id)).toMatchObject({ verdict: "too_old", reason: expect.stringContaining("6 min ago") });
  });

  it("replayed: the same validly signed id a second time is recorded once, and the replay is kept as such", async () => {
    const body = payload();
    const headers = signed(body);
    const [first, second] = await Promise.all([post(body, headers), post(body, headers)]);
    expect([first.body.verdict, second.body.verdict].sort()).toEqual(["replayed", "valid"]);
    expect([first.status, second.status]).toEqual([200, 200]);
    const third = await post(body, headers);
    expect(third.body).toMatchObject({ verdict: "replayed", reason: expect.stringContaining(headers["webhook-id"]) });
  });

  it("not verified: unsigned, or another provider's scheme; kept, not dropped (202)", async () => {
    const unsigned = await post(payload(), {});
    expect(unsigned).toMatchObject({
      status: 202,
      body: { verdict: "not_verified", reason: expect.stringContaining("No Standard Webhooks signature") },
    });
    const stripeLike = await post(payload(), { "stripe-signature": "t=1,v1=abc" });
    const kept = await entry(stripeLike.body.id);
    expect(kept).toMatchObject({ verdict: "not_verified", headers: { "stripe-signature": "t=1,v1=abc" } });
  });

  it("odd input never fails: not JSON, NUL bytes, invalid UTF-8, no body", async () => {
    for (const body of ["{", "\u0000\u0001", new Uint8Array([0xff, 0xfe, 0x00, 0xc3]), ""]) {
      const answer = await post(body as BodyInit, {});
      expect(answer.status).toBe(202);
    }
  });
});

describe("the webhook inbox's bounds", () => {
  it("a body over WEBHOOK_INBOX_MAX_BODY_BYTES is cut there, not verified, and answered 413", async () => {
    const body = JSON.stringify({ type: "invoice.status_changed", pad: "x".repeat(100_000) });
    const answer = await post(body, signed(body));
    expect(answer).toMatchObject({
      status: 413,
      type: "application/problem+json",
      body: { code: "body_too_large", verdict: "not_verified" },
    });
    const kept = await entry(answer.body.id);
    expect(kept.truncated).toBe(true);
    expect(kept.body).toHaveLength(2048);
    expect(kept.body_bytes).toBeGreaterThan(2048);
  });

  it("keeps at most WEBHOOK_INBOX_MAX_ENTRIES unverified entries, the newest, and pages after a cursor", async () => {
    const db = await getDatabase();
    const before = await listInbox(db, { limit: 100 });
    const ids: string[] = [];
    for (let i = 0; i < 15; i++) ids.push((await post(payload(`invoice_flood_${i}`), { "x-forwarded-for": "198.51.100.1" })).body.id);
    const after = await listInbox(db, { limit: 100 });
    expect(after.entries.filter((e) => e.verdict === "not_verified").map((e) => e.id)).toEqual(ids.slice(-10).reverse());

    const since = await listInbox(db, { since: after.entries.find((e) => e.id === ids[11])!.seq, limit: 100 });
    expect(since.entries.map((e) => e.id)).toEqual(ids.slice(-3).reverse());
    expect(since.cursor).toBe(after.cursor);
    expect(after.cursor).toBeGreaterThan(before.cursor);
    expect((await listInbox(db, { invoice_id: "invoice_flood_14", limit: 100 })).entries.map((e) => e.id)).toEqual([ids[14]]);
  });

  it("an unsigned flood never pushes out a signed webhook: the two are kept in budgets of their own", async () => {
    const db = await getDatabase();
    const body = payload();
    const signedEntry = (await post(body, signed(body))).body.id;
    for (let i = 0; i < 25; i++) await post(payload(), { "x-forwarded-for": `198.51.100.${10 + i}` });
    const { entries } = await listInbox(db, { limit: 100 });
    expect(entries.map((e) => e.id)).toContain(signedEntry);
    expect(entries.filter((e) => e.verdict !== "valid" && e.verdict !== "replayed")).toHaveLength(10);
  });

  it("GET /api/webhook-inbox filters by verdict (several at once) beside the invoice, and refuses a verdict it does not know", async () => {
    const body = payload();
    const signedEntry = (await post(body, signed(body))).body.id;
    for (let i = 0; i < 3; i++) await post(payload(), { "x-forwarded-for": `198.51.100.${60 + i}` });
    const { GET } = await import("@/app/api/webhook-inbox/route");
    const cookie = await (await import("@/lib/console/auth/signed-in-cookie")).signedInCookie("admin");
    const get = async (search: string) =>
      GET(new Request(`http://console.test/api/webhook-inbox?${search}`, { headers: { cookie } }), { params: Promise.resolve() as never });
    const valid = await (await get("verdict=valid&limit=100")).json();
    expect(valid.entries.map((e: { id: string }) => e.id)).toContain(signedEntry);
    expect(valid.entries.every((e: { verdict: string }) => e.verdict === "valid")).toBe(true);
    const either = await (await get("verdict=valid,not_verified&limit=100")).json();
    expect(new Set(either.entries.map((e: { verdict: string }) => e.verdict))).toEqual(new Set(["valid", "not_verified"]));
    const refused = await get("verdict=valid,signed");
    expect(refused.status).toBe(422);
    expect((await refused.json()).errors[0]).toMatchObject({ pointer: "/verdict/1" });
  });

  it("answers 429 with Retry-After past WEBHOOK_INBOX_RATE_LIMIT posts a minute from one address, and keeps nothing of them", async () => {
    const db = await getDatabase();
    const from = { "x-forwarded-for": "203.0.113.7" };
    for (let i = 0; i < 40; i++) expect((await post(payload(), from)).status).toBe(202);
    const refused = await POST(
      new Request("http://console.test/api/webhook-inbox", { method: "POST", body: payload("invoice_refused"), headers: from }),
      {},
    );
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await refused.json()).toMatchObject({ code: "too_many_requests" });
    expect((await listInbox(db, { invoice_id: "invoice_refused", limit: 10 })).entries).toEqual([]);
    // Another address is not held back.
    expect((await post(payload(), { "x-forwarded-for": "203.0.113.8" })).status).toBe(202);
  });
});
