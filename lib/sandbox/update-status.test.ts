import { beforeAll, describe, expect, it } from "vitest";
import { GET, PATCH } from "@/app/sandbox/api/v1/invoices/[id]/route";
import { getSandboxDb } from "@/lib/sandbox";
import { createTestMerchant } from "@/test/sandbox-fixtures";

let key: string;
let readOnlyKey: string;
let otherKey: string;
let id: string;

beforeAll(async () => {
  const db = await getSandboxDb();
  const created = new Date("2026-05-01T10:00:00Z");
  const merchant = await createTestMerchant(db, [{ createdAt: created, status: "pending" }]);
  key = merchant.key;
  id = merchant.invoices[0].id;
  ({ key: otherKey } = await createTestMerchant(db, []));
  readOnlyKey = (await createTestMerchant(db, [], ["invoices:read"])).key;
});

async function patch(invoiceId: string, body: string, apiKey: string | null = key) {
  const headers: Record<string, string> = { "content-type": "application/json", ...(apiKey ? { "api-key": apiKey } : {}) };
  const response = await PATCH(
    new Request(`http://sandbox.test/sandbox/api/v1/invoices/${invoiceId}`, { method: "PATCH", headers, body }),
    {
      params: Promise.resolve({ id: invoiceId }),
    },
  );
  return { status: response.status, body: await response.json() };
}

async function current() {
  const response = await GET(new Request(`http://sandbox.test/sandbox/api/v1/invoices/${id}`, { headers: { "api-key": key } }), {
    params: Promise.resolve({ id }),
  });
  return response.json();
}

describe("PATCH /invoices/{id}", () => {
  it("changes the status and moves updated_at, by prefixed id or bare UUID", async () => {
    const before = await current();
    const { status, body } = await patch(`invoice_${id}`, JSON.stringify({ status: "cancelled" }));
    expect(status).toBe(200);
    expect(body).toMatchObject({ invoice_id: `invoice_${id}`, status: "cancelled" });
    expect(Date.parse(body.updated_at)).toBeGreaterThan(Date.parse(before.updated_at));
    expect(await current()).toEqual(body);

    const again = await patch(id, JSON.stringify({ status: "new" }));
    expect(again.body.status).toBe("new");
  });

  it("setting the status it already has is a 200 that changes nothing", async () => {
    const before = await current();
    const { status, body } = await patch(id, JSON.stringify({ status: before.status }));
    expect(status).toBe(200);
    expect(body.updated_at).toBe(before.updated_at);
  });

  it.each([
    ["not JSON", "status=cancelled"],
    ["a JSON array", '["cancelled"]'],
    ["JSON null", "null"],
    ["a JSON string", '"cancelled"'],
  ])("answers 400 for a body that is %s", async (_, body) => {
    const { status, body: problem } = await patch(id, body);
    expect(status).toBe(400);
    expect(problem.code).toBe("invalid_body");
  });

  it.each([
    ["missing status", "{}"],
    ["unknown status", '{"status":"refunded"}'],
    ["archived (only POST /archived makes it)", '{"status":"archived"}'],
    ["a number", '{"status":3}'],
  ])("answers 422 on /status for a %s", async (_, body) => {
    const { status, body: problem } = await patch(id, body);
    expect(status).toBe(422);
    expect(problem.errors.map((e: { pointer: string }) => e.pointer)).toEqual(["/status"]);
  });

  it("answers 422 naming a field it would otherwise ignore, and changes nothing", async () => {
    const before = await current();
    const { status, body } = await patch(id, '{"status":"completed","fiat_amount":0}');
    expect(status).toBe(422);
    expect(body.errors).toEqual([{ pointer: "/fiat_amount", code: "unrecognized_keys", detail: expect.stringContaining("only status") }]);
    expect(await current()).toEqual(before);
  });

  it.each([
    ["text/plain", "text/plain"],
    ["form-encoded", "application/x-www-form-urlencoded"],
    ["without a content type", null],
  ])("answers 415 for a JSON body sent as %s, and changes nothing", async (_, type) => {
    const before = await current();
    const request = new Request(`http://sandbox.test/sandbox/api/v1/invoices/${id}`, {
      method: "PATCH",
      headers: { "api-key": key },
      body: '{"status":"expired"}',
    });
    // A string body gets text/plain from the Request itself; the header says what the test means.
    if (type) request.headers.set("content-type", type);
    else request.headers.delete("content-type");
    const response = await PATCH(request, { params: Promise.resolve({ id }) });
    expect(response.status).toBe(415);
    expect(await response.json()).toMatchObject({
      status: 415,
      code: "unsupported_media_type",
      detail: expect.stringContaining("application/json"),
    });
    expect(await current()).toEqual(before);
  });

  it("reads application/json with a charset", async () => {
    const response = await PATCH(
      new Request(`http://sandbox.test/sandbox/api/v1/invoices/${id}`, {
        method: "PATCH",
        headers: { "api-key": key, "content-type": "Application/JSON; charset=utf-8" },
        body: '{"status":"expired"}',
      }),
      { params: Promise.resolve({ id }) },
    );
    expect(response.status).toBe(200);
    expect((await response.json()).status).toBe("expired");
  });

  it("answers 401 without a key", async () => {
    expect((await patch(id, '{"status":"new"}', null)).status).toBe(401);
  });

  it("answers 403 for a read-only key, naming the scope", async () => {
    const { status, body } = await patch(id, '{"status":"new"}', readOnlyKey);
    expect(status).toBe(403);
    expect(body.detail).toContain("invoices:write");
  });

  it("answers 403 for another merchant's invoice and changes nothing", async () => {
    const before = await current();
    const { status } = await patch(id, '{"status":"completed"}', otherKey);
    expect(status).toBe(403);
    expect(await current()).toEqual(before);
  });

  it.each(["invoice_0190a1d2-ffff-7fff-8fff-ffffffffffff", "nope"])("answers 404 for %s", async (unknown) => {
    const { status, body } = await patch(unknown, '{"status":"new"}');
    expect(status).toBe(404);
    expect(body.code).toBe("not_found");
  });
});
