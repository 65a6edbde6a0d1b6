import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { POST } from "@/app/sandbox/api/v1/archived/route";
import { GET as getRoute, PATCH } from "@/app/sandbox/api/v1/invoices/[id]/route";
import { GET as listRoute } from "@/app/sandbox/api/v1/invoices/route";
import { ALLOWED_ERROR_PERCENT_DEFAULT } from "@/lib/contract";
import { Big } from "@/lib/contract/money-json";
import { getSandboxDb } from "@/lib/sandbox";
import { webhookDeliveries } from "@/lib/sandbox/schema";
import { apiInvoiceSchema } from "@/lib/sandbox/wire-schemas";
import { createTestMerchant } from "@/test/sandbox-fixtures";
import { marketRates } from "./market";

const URL_ = "http://sandbox.test/sandbox/api/v1";
let key: string;
let readOnlyKey: string;
let otherKey: string;
let n = 0;
/** An order id no other test uses. */
const orderId = () => `ARCH-${Date.now().toString(36)}-${++n}`;

beforeAll(async () => {
  const db = await getSandboxDb();
  key = (await createTestMerchant(db, [])).key;
  otherKey = (await createTestMerchant(db, [])).key;
  readOnlyKey = (await createTestMerchant(db, [], ["invoices:read"])).key;
});

async function post(body: unknown, apiKey: string | null = key) {
  const headers: Record<string, string> = { "content-type": "application/json", ...(apiKey ? { "api-key": apiKey } : {}) };
  const response = await POST(
    new Request(`${URL_}/archived`, { method: "POST", headers, body: typeof body === "string" ? body : JSON.stringify(body) }),
    { params: Promise.resolve({}) },
  );
  return { status: response.status, type: response.headers.get("content-type"), body: await response.json() };
}

const pointers = (body: { errors?: { pointer: string }[] }) => (body.errors ?? []).map((e) => e.pointer).sort();
const iso = (ms: number) => new Date(ms).toISOString();

describe("POST /archived: a valid body", () => {
  it("creates an archived invoice from a EUR amount, deriving crypto at the market's rate of its created_at", async () => {
    const order = orderId();
    const { status, body } = await post({
      order_id: order,
      order_name: "Old order",
      currency: "btc",
      fiat_amount: 1234.5,
      created_at: "2025-03-01",
    });
    expect(status).toBe(201);
    expect(apiInvoiceSchema.parse(body)).toBeTruthy();
    expect(body).toMatchObject({
      order_id: order,
      order_name: "Old order",
      status: "archived",
      fiat_amount: 1234.5,
      fiat_currency: "EUR",
      currency: "BTC",
      allowed_error_percent: ALLOWED_ERROR_PERCENT_DEFAULT,
      callback_url: null,
      created_at: "2025-03-01T00:00:00.000Z",
      expires_at: null,
    });
    // The market's rate of 2025-03-01 00:00 UTC, with all its digits, not today's.
    expect(String(body.payment.rate)).toBe(marketRates(new Date("2025-03-01T00:00:00Z")).BTC);
    expect(String(body.payment.rate)).not.toBe(marketRates(new Date()).BTC);
    expect(body.priced_in).toBe("fiat");
    expect(body.payment).toMatchObject({ address: null, amount_received: null, transactions: [] });
    // EUR ÷ rate, rounded half up to BTC's 8 places.
    expect(String(body.crypto_amount)).toBe(
      new Big("1234.5")
        .div(marketRates(new Date("2025-03-01T00:00:00Z")).BTC)
        .round(8, Big.roundHalfUp)
        .toFixed(),
    );
    expect(body.invoice_id).toMatch(/^invoice_[0-9a-f-]{36}$/);
  });

  it("creates one from a crypto amount, deriving EUR (to the cent) and recording the rate", async () => {
    const { status, body } = await post({ order_id: orderId(), currency: "ETH", crypto_amount: 0.5, allowed_error_percent: 0 });
    expect(status).toBe(201);
    expect(body.crypto_amount).toBe(0.5);
    // To the cent, half up, from the recorded rate's digits (the exact digits are archived-precision.test.ts's).
    expect(new Big(String(body.fiat_amount)).eq(new Big(String(body.payment.rate)).times("0.5").round(2, Big.roundHalfUp))).toBe(true);
    expect(body.allowed_error_percent).toBe(0);
    expect(body.priced_in).toBe("crypto");
  });

  it("prices a historical invoice at the rate of its own minute, by either amount", async () => {
    for (const [created, code] of [
      ["2024-06-30T18:45:00+02:00", "ETH"],
      ["2020-01-01", "DOGE"],
      ["2025-11-02T03:04:05Z", "SOL"],
    ] as const) {
      const rate = marketRates(new Date(created))[code];
      const byFiat = await post({ order_id: orderId(), currency: code, fiat_amount: 100, created_at: created });
      const byCrypto = await post({ order_id: orderId(), currency: code, crypto_amount: 2, created_at: created });
      for (const { body } of [byFiat, byCrypto]) {
        // The market's rate of that minute, exactly (it has 8 places at most, as the rate column).
        expect(new Big(String(body.payment.rate)).eq(rate), `${code} at ${created}`).toBe(true);
      }
      expect([byFiat.body.priced_in, byCrypto.body.priced_in]).toEqual(["fiat", "crypto"]);
    }
  });

  it("answers priced_in only on archived invoices", async () => {
    const db = await getSandboxDb();
    const { key: own, invoices } = await createTestMerchant(db, [{ createdAt: new Date("2026-01-01T00:00:00Z"), status: "pending" }]);
    const id = `invoice_${invoices[0].id}`;
    const response = await getRoute(new Request(`${URL_}/invoices/${id}`, { headers: { "api-key": own } }), {
      params: Promise.resolve({ id }),
    });
    expect(Object.keys(await response.json())).not.toContain("priced_in");
  });

  it("stores a date-time with an offset in UTC, defaults created_at to now, accepts a minute of clock skew", async () => {
    const withOffset = await post({ order_id: orderId(), currency: "LTC", fiat_amount: 0, created_at: "2025-12-31T23:30:00-02:00" });
    expect(withOffset.body.created_at).toBe("2026-01-01T01:30:00.000Z");
    const t0 = Date.now();
    const now = await post({ order_id: orderId(), currency: "LTC", fiat_amount: 1 });
    expect(Date.parse(now.body.created_at)).toBeGreaterThanOrEqual(t0 - 1000);
    const skewed = await post({ order_id: orderId(), currency: "LTC", fiat_amount: 1, created_at: iso(Date.now() + 30_000) });
    expect(skewed.status).toBe(201);
  });

  it("shows the invoice by id and in the list under status=archived", async () => {
    const { body } = await post({ order_id: orderId(), currency: "SOL", fiat_amount: 10, callback_url: "https://shop.example.com/hooks" });
    const one = await getRoute(new Request(`${URL_}/invoices/${body.invoice_id}`, { headers: { "api-key": key } }), {
      params: Promise.resolve({ id: body.invoice_id }),
    });
    expect(await one.json()).toEqual(body);
    const list = await listRoute(new Request(`${URL_}/invoices?status=archived&page_size=100`, { headers: { "api-key": key } }), {
      params: Promise.resolve({} as never),
    });
    expect((await list.json()).items.map((i: { invoice_id: string }) => i.invoice_id)).toContain(body.invoice_id);
  });

  it("another merchant may use the same order id", async () => {
    const order = orderId();
    expect((await post({ order_id: order, currency: "BTC", fiat_amount: 1 })).status).toBe(201);
    expect((await post({ order_id: order, currency: "BTC", fiat_amount: 1 }, otherKey)).status).toBe(201);
  });
});

describe("POST /archived: every rule, its status and pointer", () => {
  const future = () => iso(Date.now() + 5 * 60_000);
  const base = { currency: "BTC", fiat_amount: 10 };
  it.each<[string, Record<string, unknown>, string[]]>([
    ["order_id missing", { ...base }, ["/order_id"]],
    ["order_id empty", { ...base, order_id: "  " }, ["/order_id"]],
    ["order_id not text", { ...base, order_id: 42 }, ["/order_id"]],
    ["both amounts", { currency: "BTC", fiat_amount: 1, crypto_amount: 1 }, ["/crypto_amount", "/fiat_amount"]],
    ["neither amount", { currency: "BTC" }, ["/crypto_amount", "/fiat_amount"]],
    ["a negative fiat amount", { currency: "BTC", fiat_amount: -0.01 }, ["/fiat_amount"]],
    ["a negative crypto amount", { currency: "BTC", crypto_amount: -1 }, ["/crypto_amount"]],
    ["a fiat amount as text", { currency: "BTC", fiat_amount: "10" }, ["/fiat_amount"]],
    ["fractions of a cent", { currency: "BTC", fiat_amount: 10.001 }, ["/fiat_amount"]],
    ["more crypto decimals than the currency has", { currency: "USDT", crypto_amount: 1.0000001 }, ["/crypto_amount"]],
    ["fiat_currency other than EUR", { ...base, fiat_currency: "USD" }, ["/fiat_currency"]],
    ["currency missing", { fiat_amount: 10 }, ["/currency"]],
    ["an unknown currency", { ...base, currency: "XYZ" }, ["/currency"]],
    ["allowed_error_percent with a fraction", { ...base, allowed_error_percent: 1.5 }, ["/allowed_error_percent"]],
    ["allowed_error_percent below 0", { ...base, allowed_error_percent: -1 }, ["/allowed_error_percent"]],
    ["allowed_error_percent above 100", { ...base, allowed_error_percent: 101 }, ["/allowed_error_percent"]],
    ["a relative callback_url", { ...base, callback_url: "/hooks" }, ["/callback_url"]],
    ["a callback_url that is not http(s)", { ...base, callback_url: "ftp://shop.example.com/hooks" }, ["/callback_url"]],
    ["created_at in the future", { ...base, created_at: "FUTURE" }, ["/created_at"]],
    ["created_at tomorrow as a date", { ...base, created_at: "TOMORROW" }, ["/created_at"]],
    ["created_at without an offset", { ...base, created_at: "2025-01-01T10:00:00" }, ["/created_at"]],
    ["created_at not a date", { ...base, created_at: "last tuesday" }, ["/created_at"]],
    ["created_at an impossible date", { ...base, created_at: "2025-02-30" }, ["/created_at"]],
    ["an unknown field", { ...base, status: "completed" }, ["/status"]],
  ])("%s → 422 naming exactly those fields", async (what, fields, expected) => {
    const body: Record<string, unknown> = { order_id: orderId(), ...fields };
    if (what === "order_id missing") delete body.order_id;
    if (body.created_at === "FUTURE") body.created_at = future();
    if (body.created_at === "TOMORROW") body.created_at = iso(Date.now() + 86_400_000).slice(0, 10);
    const { status, type, body: problem } = await post(body);
    expect(status).toBe(422);
    expect(type).toBe("application/problem+json");
    expect(problem.code).toBe("validation_failed");
    expect(pointers(problem)).toEqual(expected);
  });

  it("a duplicate order id → 422 naming /order_id, saying it is already recorded", async () => {
    const order = orderId();
    expect((await post({ order_id: order, currency: "BTC", fiat_amount: 1 })).status).toBe(201);
    const { status, body } = await post({ order_id: order, currency: "ETH", crypto_amount: 2 });
    expect(status).toBe(422);
    expect(body.errors).toEqual([expect.objectContaining({ pointer: "/order_id", code: "duplicate_order_id" })]);
    expect(body.errors[0].detail).toContain("already recorded");
  });

  it("two simultaneous requests with one order id create one invoice", async () => {
    for (let round = 0; round < 5; round++) {
      const order = orderId();
      const answers = await Promise.all(Array.from({ length: 4 }, () => post({ order_id: order, currency: "BTC", fiat_amount: 5 })));
      expect(answers.map((a) => a.status).sort()).toEqual([201, 422, 422, 422]);
      for (const a of answers.filter((x) => x.status === 422)) expect(pointers(a.body)).toEqual(["/order_id"]);
    }
  });

  it.each([
    ["not JSON", "order_id=1"],
    ["a JSON array", "[]"],
    ["JSON null", "null"],
  ])("a body that is %s → 400", async (_, raw) => {
    const { status, body } = await post(raw);
    expect(status).toBe(400);
    expect(body.code).toBe("invalid_body");
    expect(body.detail).toContain("order_id");
  });

  it("no key or an unknown key → 401; a read-only key → 403 naming the scope", async () => {
    expect((await post({ order_id: orderId(), ...base }, null)).status).toBe(401);
    expect((await post({ order_id: orderId(), ...base }, "sk_test_nobody")).status).toBe(401);
    const readOnly = await post({ order_id: orderId(), ...base }, readOnlyKey);
    expect(readOnly.status).toBe(403);
    expect(readOnly.body.detail).toContain("invoices:write");
  });
});

describe("an archived invoice stays as it was recorded", () => {
  it("PATCH → 422 naming /status and saying why; nothing changes and no webhook is queued", async () => {
    const { body: created } = await post({
      order_id: orderId(),
      currency: "BTC",
      fiat_amount: 3,
      callback_url: "https://shop.example.com/hooks",
    });
    for (const status of ["cancelled", "completed", "archived"]) {
      const response = await PATCH(
        new Request(`${URL_}/invoices/${created.invoice_id}`, {
          method: "PATCH",
          headers: { "api-key": key, "content-type": "application/json" },
          body: JSON.stringify({ status }),
        }),
        { params: Promise.resolve({ id: created.invoice_id }) },
      );
      const problem = await response.json();
      expect(response.status).toBe(422);
      expect(pointers(problem)).toEqual(["/status"]);
      // "archived" is not one of PATCH's six statuses at all; the others are refused because of the invoice.
      if (status !== "archived")
        expect(problem).toMatchObject({ code: "archived_invoice", detail: expect.stringMatching(/archived record/) });
    }
    const again = await getRoute(new Request(`${URL_}/invoices/${created.invoice_id}`, { headers: { "api-key": key } }), {
      params: Promise.resolve({ id: created.invoice_id }),
    });
    expect(await again.json()).toEqual(created);
    const db = await getSandboxDb();
    const uuid = created.invoice_id.slice("invoice_".length);
    expect(await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.invoiceId, uuid))).toEqual([]);
  });
});
