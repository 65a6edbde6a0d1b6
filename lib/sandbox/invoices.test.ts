import { beforeAll, describe, expect, it } from "vitest";
import { GET as currenciesRoute } from "@/app/sandbox/api/v1/currencies/route";
import { GET as getRoute } from "@/app/sandbox/api/v1/invoices/[id]/route";
import { GET as listRoute } from "@/app/sandbox/api/v1/invoices/route";
import { ALL_INVOICE_STATUSES } from "@/lib/contract";
import { getSandboxDb } from "@/lib/sandbox";
import type { ApiInvoice as Invoice, ApiInvoiceList as InvoiceList } from "@/lib/sandbox/wire-schemas";
import { createTestMerchant } from "@/test/sandbox-fixtures";

const BASE = "http://sandbox.test/sandbox/api/v1";
const HOUR = 3_600_000;
const T0 = Date.parse("2026-03-01T00:00:00Z");
const CURRENCIES = ["BTC", "ETH", "USDT"];

let key: string;
let readOnlyKey: string;
let noScopeKey: string;
let otherInvoiceId: string;

// 30 invoices, one an hour from T0: statuses and currencies cycle, fiat amounts repeat (ties), crypto
// amounts are distinct, updated_at runs in the opposite order of created_at.
const fixtures = Array.from({ length: 30 }, (_, i) => ({
  createdAt: new Date(T0 + i * HOUR),
  updatedAt: new Date(T0 + (60 - i) * HOUR),
  status: ALL_INVOICE_STATUSES[i % ALL_INVOICE_STATUSES.length],
  currency: CURRENCIES[i % CURRENCIES.length],
  fiatAmount: [10, 20, 30][i % 3] + 0.5,
  cryptoAmount: ((i * 7919) % 101) / 1000 + 0.0001 * i,
  orderName: `Order ${i}`,
}));

beforeAll(async () => {
  const db = await getSandboxDb();
  ({ key } = await createTestMerchant(db, fixtures));
  ({ key: readOnlyKey } = await createTestMerchant(db, [], ["invoices:read"]));
  ({ key: noScopeKey } = await createTestMerchant(db, [], ["rates:read"]));
  const other = await createTestMerchant(db, [{ createdAt: new Date(T0) }]);
  otherInvoiceId = other.invoices[0].id;
});

type Route = (request: Request, context: { params: Promise<never> }) => Promise<Response>;

async function call(route: Route, path: string, apiKey: string | null = key, params: object = {}) {
  const headers: Record<string, string> = apiKey === null ? {} : { "api-key": apiKey };
  const response = await route(new Request(`${BASE}${path}`, { headers }), { params: Promise.resolve(params as never) });
  return { status: response.status, type: response.headers.get("content-type"), body: await response.json() };
}

async function list(query = "", apiKey: string | null = key) {
  const { status, body } = await call(listRoute, `/invoices${query}`, apiKey);
  expect(status).toBe(200);
  return body as InvoiceList;
}

async function all(query: string) {
  return (await list(`?page_size=100&${query}`)).items;
}

const orderNumbers = (items: Invoice[]) => items.map((i) => Number(i.order_name?.split(" ")[1]));

describe("GET /invoices: authentication", () => {
  it.each([
    ["missing", null],
    ["unknown", "sk_test_nobody"],
  ])("answers 401 problem for a %s key", async (_, apiKey) => {
    const { status, type, body } = await call(listRoute, "/invoices", apiKey);
    expect(status).toBe(401);
    expect(type).toBe("application/problem+json");
    expect(body).toMatchObject({ status: 401, code: "unauthorized" });
  });

  it("answers 403 naming the scope when the key may not read invoices", async () => {
    const { status, body } = await call(listRoute, "/invoices", noScopeKey);
    expect(status).toBe(403);
    expect(body.detail).toContain("invoices:read");
  });

  it("lets a read-only key list, and shows each merchant only its own invoices", async () => {
    expect((await list("", readOnlyKey)).pagination.total_records).toBe(0);
    expect((await list()).pagination.total_records).toBe(30);
  });
});

describe("GET /invoices: defaults and pagination", () => {
  it("answers the first 20, newest first, with the pagination object", async () => {
    const body = await list();
    expect(body.items).toHaveLength(20);
    expect(orderNumbers(body.items)).toEqual(Array.from({ length: 20 }, (_, i) => 29 - i));
    expect(body.pagination).toEqual({
      current_page: 1,
      page_size: 20,
      total_pages: 2,
      total_records: 30,
      has_next: true,
      has_previous: false,
    });
  });

  it("answers the last, partial page and an empty page past the end", async () => {
    const last = await list("?page=2");
    expect(orderNumbers(last.items)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    expect(last.pagination).toMatchObject({ current_page: 2, has_next: false, has_previous: true });
    const past = await list("?page=3");
    expect(past.items).toEqual([]);
    expect(past.pagination).toMatchObject({ current_page: 3, total_pages: 2, total_records: 30, has_next: false, has_previous: true });
  });

  it("pages through every invoice exactly once at page boundaries", async () => {
    const seen: string[] = [];
    for (let page = 1; page <= 4; page++) seen.push(...(await list(`?page_size=8&page=${page}`)).items.map((i) => i.invoice_id));
    expect(seen).toHaveLength(30);
    expect(new Set(seen).size).toBe(30);
  });

  it("returns full invoices in the contract's shape", async () => {
    const [item] = (await list("?page_size=1")).items;
    expect(item.invoice_id).toMatch(/^invoice_[0-9a-f-]{36}$/);
    expect(item).toMatchObject({ order_id: "T-30", fiat_currency: "EUR", currency: "USDT", status: "pending" });
  });
});

describe("GET /invoices: filters", () => {
  it.each(ALL_INVOICE_STATUSES)("status=%s selects only that status", async (status) => {
    const items = await all(`status=${status}`);
    expect(items.length).toBe(fixtures.filter((f) => f.status === status).length);
    expect(items.every((i) => i.status === status)).toBe(true);
  });

  it("currency selects one currency, in any letter case", async () => {
    const items = await all("currency=eth");
    expect(items).toHaveLength(10);
    expect(items.every((i) => i.currency === "ETH")).toBe(true);
  });

  it("created_after and created_before are exclusive bounds and combine", async () => {
    const after = new Date(T0 + 24 * HOUR).toISOString();
    expect(orderNumbers(await all(`created_after=${after}`))).toEqual([29, 28, 27, 26, 25]);
    const before = new Date(T0 + 2 * HOUR).toISOString();
    expect(orderNumbers(await all(`created_before=${before}`))).toEqual([1, 0]);
    expect(orderNumbers(await all(`created_after=${before}&created_before=${after}`))).toHaveLength(21);
  });

  it("accepts a plain date as midnight UTC and a date-time with an offset", async () => {
    expect(await all("created_after=2026-03-02")).toHaveLength(5);
    expect(await all(`created_before=${encodeURIComponent("2026-03-01T02:00:00+01:00")}`)).toHaveLength(1);
  });

  it("combines status and currency", async () => {
    const items = await all("status=new&currency=BTC");
    const expected = fixtures.filter((f) => f.status === "new" && f.currency === "BTC").length;
    expect(items).toHaveLength(expected);
  });
});

describe("GET /invoices: sorting", () => {
  const cases = [
    ["created_at", (f: (typeof fixtures)[number]) => f.createdAt.getTime()],
    ["updated_at", (f: (typeof fixtures)[number]) => f.updatedAt.getTime()],
    ["crypto_amount", (f: (typeof fixtures)[number]) => f.cryptoAmount],
  ] as const;

  for (const [field, value] of cases) {
    for (const order of ["asc", "desc"] as const) {
      it(`sort_by=${field}&sort_order=${order}`, async () => {
        const expected = fixtures
          .map((f, i) => ({ i, v: value(f) }))
          .sort((a, b) => (order === "asc" ? a.v - b.v : b.v - a.v))
          .map((x) => x.i);
        expect(orderNumbers(await all(`sort_by=${field}&sort_order=${order}`))).toEqual(expected);
      });
    }
  }

  it.each(["asc", "desc"] as const)("sort_by=fiat_amount&sort_order=%s breaks ties by invoice id", async (order) => {
    const items = await all(`sort_by=fiat_amount&sort_order=${order}`);
    const amounts = items.map((i) => i.fiat_amount);
    expect(amounts).toEqual([...amounts].sort((a, b) => (order === "asc" ? a - b : b - a)));
    // Ties (10 invoices share each amount) follow the id, which is time-ordered.
    const within = items.filter((i) => i.fiat_amount === 20.5).map((i) => i.invoice_id);
    expect(within).toEqual([...within].sort((a, b) => (order === "asc" ? a.localeCompare(b) : b.localeCompare(a))));
  });

  it("never repeats or skips a row across pages of tied values", async () => {
    const pages = await Promise.all([1, 2, 3, 4, 5, 6].map((p) => list(`?sort_by=fiat_amount&page_size=5&page=${p}`)));
    const ids = pages.flatMap((p) => p.items.map((i) => i.invoice_id));
    expect(new Set(ids).size).toBe(30);
  });
});

describe("GET /invoices: each broken rule is a 422 naming the parameter", () => {
  it.each([
    ["status=paid", "/status"],
    ["currency=%24%24", "/currency"],
    ["created_after=yesterday", "/created_after"],
    ["created_before=2026-13-01", "/created_before"],
    ["created_after=2026-03-01T10:00:00", "/created_after"],
    ["created_after=9999-12-31T23:59:59-12:00", "/created_after"],
    ["created_after=2026-03-02&created_before=2026-03-01", "/created_before"],
    ["page=0", "/page"],
    ["page=abc", "/page"],
    ["page=1.5", "/page"],
    ["page=-1", "/page"],
    ["page_size=0", "/page_size"],
    ["page_size=101", "/page_size"],
    ["page_size=ten", "/page_size"],
    ["sort_by=order_name", "/sort_by"],
    ["sort_order=up", "/sort_order"],
  ])("%s → %s", async (query, pointer) => {
    const { status, type, body } = await call(listRoute, `/invoices?${query}`);
    expect(status).toBe(422);
    expect(type).toBe("application/problem+json");
    expect(body).toMatchObject({ status: 422, code: "validation_failed" });
    expect(body.errors.map((e: { pointer: string }) => e.pointer)).toEqual([pointer]);
    expect(body.errors[0].detail).toEqual(expect.any(String));
  });

  it("reports every broken rule at once", async () => {
    const { body } = await call(listRoute, "/invoices?page=0&page_size=500&sort_order=sideways");
    expect(body.errors.map((e: { pointer: string }) => e.pointer).sort()).toEqual(["/page", "/page_size", "/sort_order"]);
  });
});

describe("GET /invoices/{id}", () => {
  it("answers the invoice by prefixed id and by bare UUID", async () => {
    const [first] = (await list("?page_size=1")).items;
    const bare = first.invoice_id.replace("invoice_", "");
    for (const id of [first.invoice_id, bare, bare.toUpperCase()]) {
      const { status, body } = await call(getRoute, `/invoices/${id}`, key, { id });
      expect(status).toBe(200);
      expect(body).toEqual(first);
    }
  });

  it.each(["invoice_0190a1d2-ffff-7fff-8fff-ffffffffffff", "not-an-id", "invoice_"])("answers 404 for %s", async (id) => {
    const { status, body } = await call(getRoute, `/invoices/${id}`, key, { id });
    expect(status).toBe(404);
    expect(body.code).toBe("not_found");
  });

  it("answers 403 for another merchant's invoice", async () => {
    const { status, body } = await call(getRoute, `/invoices/${otherInvoiceId}`, key, { id: otherInvoiceId });
    expect(status).toBe(403);
    expect(body.code).toBe("other_merchant");
  });

  it("answers 401 without a key", async () => {
    const { status } = await call(getRoute, `/invoices/${otherInvoiceId}`, null, { id: otherInvoiceId });
    expect(status).toBe(401);
  });
});

describe("GET /currencies", () => {
  it("lists the supported currencies", async () => {
    const { status, body } = await call(currenciesRoute, "/currencies");
    expect(status).toBe(200);
    expect(body.currencies.length).toBeGreaterThanOrEqual(6);
    expect(body.currencies[0]).toEqual({ code: "BTC", name: "Bitcoin", network: "bitcoin", decimals: 8 });
  });
});
