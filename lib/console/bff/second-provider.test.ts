import { beforeAll, describe, expect, it } from "vitest";
import { compareDecimal, type Invoice } from "@/lib/contract";
import { onSecondProvider } from "@/test/on-second-provider";
import { openTransitionPolicy } from "@/test/open-policy";
import { CURRENCY_STYLES, ERROR_STYLES } from "@/test/second-provider";

/**
 * The console's API routes against a second provider that speaks the spec but chose differently from the
 * sandbox everywhere the spec is silent (test/second-provider.ts): other ids, timestamps, amounts, statuses,
 * payment shapes, currencies and error bodies. The browser must get the console's one shape all the same.
 */
type Route<P> = (request: Request, context: { params: Promise<P> }) => Promise<Response>;
const provider = onSecondProvider({ UPSTREAM_TIMEOUT_MS: "10000" });
let listRoute: Route<never>;
let invoiceGet: Route<{ id: string }>;
let invoicePatch: Route<{ id: string }>;
let currenciesRoute: Route<never>;
let cookie: string;

beforeAll(async () => {
  ({ GET: listRoute } = await import("@/app/api/invoices/route"));
  ({ GET: invoiceGet, PATCH: invoicePatch } = await import("@/app/api/invoices/[id]/route"));
  ({ GET: currenciesRoute } = await import("@/app/api/currencies/route"));
  cookie = await (await import("@/lib/console/auth/signed-in-cookie")).signedInCookie("support");
  // What the provider answers is under test here, not the console's policy.
  await openTransitionPolicy();
});

async function answer(response: Response) {
  return { status: response.status, type: response.headers.get("content-type"), body: await response.json() };
}

const list = async (query = "") =>
  answer(
    await listRoute(new Request(`http://console.test/api/invoices${query}`, { headers: { cookie } }), {
      params: Promise.resolve() as never,
    }),
  );

const get = async (id: string) =>
  answer(
    await invoiceGet(new Request(`http://console.test/api/invoices/${encodeURIComponent(id)}`, { headers: { cookie } }), {
      params: Promise.resolve({ id }),
    }),
  );

const patch = async (id: string, body: unknown) =>
  answer(
    await invoicePatch(
      new Request(`http://console.test/api/invoices/${encodeURIComponent(id)}`, {
        method: "PATCH",
        headers: { cookie, origin: "http://console.test", "content-type": "application/json" },
        body: JSON.stringify(body),
      }),
      { params: Promise.resolve({ id }) },
    ),
  );

const currencies = async () =>
  answer(
    await currenciesRoute(new Request("http://console.test/api/currencies", { headers: { cookie } }), {
      params: Promise.resolve() as never,
    }),
  );

const all = async (query = "") => (await list(`?page_size=100${query}`)).body.items as Invoice[];
const byId = (items: Invoice[], id: string) => items.find((i) => i.invoice_id === id)!;

describe("the list, against a provider with other choices", () => {
  it("answers every invoice in the console's shape: opaque ids, UTC instants, numbers from strings, null for the odd", async () => {
    const { status, body } = await list("?page_size=100");
    expect(status).toBe(200);
    expect(body.pagination).toEqual({
      current_page: 1,
      page_size: 100,
      total_pages: 1,
      total_records: 31,
      has_next: false,
      has_previous: false,
    });
    const ids = body.items.map((i: Invoice) => i.invoice_id);
    expect(ids).toEqual(expect.arrayContaining(["inv_8Hq2x", "48213", "inv/2024 07", "inv_odd", "6f1c1f9e-8b7a-4d2e-9c3b-2a1d0e9f8c7b"]));

    const short = byId(body.items, "inv_8Hq2x");
    expect(short).toMatchObject({
      fiat_amount: "12.50", // as sent: a decimal string with the provider's digits
      crypto_amount: "0.00020408",
      order_name: null,
      callback_url: null,
      created_at: "2026-03-01T09:15:00.000Z", // no offset: read as UTC
      updated_at: "2026-03-01T09:20:00.123Z", // six-digit fraction, +00:00
    });
    const numeric = byId(body.items, "48213"); // a JSON number on the wire
    expect(numeric).toMatchObject({ order_id: "99017", status: "on_hold", created_at: "2026-02-14T08:00:00.123Z" });
  });

  it("one odd field blanks its own value only: the row is still listed", async () => {
    const odd = byId(await all(), "inv_odd");
    expect(odd).toMatchObject({
      fiat_amount: null,
      created_at: null,
      expires_at: null,
      crypto_amount: "0.5",
      status: "new",
      currency: "LTC",
    });
  });

  it.each([
    ["status=completed", (i: Invoice) => i.status === "completed"],
    ["status=pending", (i: Invoice) => i.status === "pending"],
    ["currency=eth", (i: Invoice) => i.currency === "ETH"],
    ["created_after=2026-02-01&created_before=2026-03-01", (i: Invoice) => i.created_at! > "2026-02-01" && i.created_at! < "2026-03-01"],
  ])("filters by %s", async (query, holds) => {
    const items = await all(`&${query}`);
    expect(items.length).toBeGreaterThan(0);
    expect(items.every(holds)).toBe(true);
  });

  it.each([
    ["created_at", "asc"],
    ["created_at", "desc"],
    ["updated_at", "asc"],
    ["fiat_amount", "desc"],
    ["crypto_amount", "asc"],
  ] as const)("sorts by %s %s", async (field, order) => {
    const values = (await all(`&sort_by=${field}&sort_order=${order}`)).map((i) => i[field]).filter((v) => v !== null);
    expect(values.length).toBeGreaterThan(10);
    // Amounts are decimal strings: compared by value, never as text or floats.
    const byValue = (a: string, b: string) =>
      field === "fiat_amount" || field === "crypto_amount" ? compareDecimal(a, b) : a < b ? -1 : a > b ? 1 : 0;
    const sorted = [...values].sort((a, b) => byValue(a!, b!));
    expect(values).toEqual(order === "asc" ? sorted : sorted.reverse());
  });

  it("pages through the provider's pagination, whose total it sends as a string", async () => {
    const first = await list("?page=1&page_size=8");
    const second = await list("?page=2&page_size=8");
    expect(first.body.pagination).toMatchObject({ total_records: 31, total_pages: 4, has_next: true, has_previous: false });
    expect(second.body.pagination).toMatchObject({ current_page: 2, has_previous: true });
    const ids = [...first.body.items, ...second.body.items].map((i: Invoice) => i.invoice_id);
    expect(new Set(ids).size).toBe(16);
  });
});

describe("one invoice", () => {
  it.each(["inv_8Hq2x", "48213", "inv/2024 07", "pct%41 x", "6f1c1f9e-8b7a-4d2e-9c3b-2a1d0e9f8c7b"])(
    "is asked for by %s as given, URL-encoded",
    async (id) => {
      const { status, body } = await get(id);
      expect(status).toBe(200);
      expect(body.invoice_id).toBe(id);
      expect(provider.requests.at(-1)!.url).toBe(`/api/v1/invoices/${encodeURIComponent(id)}`);
    },
  );

  it("puts payment details of another shape into the payment section, and every other field under provider_fields", async () => {
    const { body } = await get("inv_8Hq2x");
    expect(body.payment).toMatchObject({
      address: "bc1qsecondprovider0000000000000000000abcd",
      network: "bitcoin",
      amount_received: "0.0001",
      rate: "61250.00",
      confirmations_required: 3,
      transactions: [],
    });
    expect(body.provider_fields).toEqual([
      { key: "customer", value: { email: "ana@shop.example", country: "PT" } },
      { key: "risk_score", value: 0.12 },
      { key: "payment_details.memo", value: "Thank you" },
    ]);
  });

  it("reads transactions at the top level with other names, and keeps what it has no place for", async () => {
    const { body } = await get("48213");
    expect(body.status).toBe("on_hold");
    expect(body.payment.confirmations).toBe(14);
    expect(body.payment.transactions).toEqual([
      {
        tx_hash: "0xfeedbeef01",
        amount: "0.0783",
        confirmations: null,
        block_height: 23480001,
        seen_at: "2026-02-14T08:05:00.000Z",
        explorer_url: "https://explorer.example/tx/0xfeedbeef01",
      },
    ]);
    expect(body.provider_fields).toEqual([
      { key: "metadata", value: { source: "pos", terminal: { id: 7, location: "Lisbon" } } },
      { key: "transactions[0].fee", value: "0.0004" },
    ]);
  });

  it("waits for a slow answer within UPSTREAM_TIMEOUT_MS instead of failing", async () => {
    provider.settings.slowMs = 1_500;
    const { status, body } = await get("inv_slow");
    expect(status).toBe(200);
    expect(body.order_id).toBe("SO-SLOW");
  });

  it("an unknown id is the provider's 404, in its own words", async () => {
    provider.settings.errorStyle = "nested-error";
    const { status, body } = await get("inv_nope");
    expect(status).toBe(404);
    expect(body.detail).toBe("No invoice inv_nope");
  });
});

describe("changing a status", () => {
  it("cancels an invoice with a short id, and the list shows it", async () => {
    const { status, body } = await patch("inv_8Hq2x", { status: "cancelled", reason: "Order voided" });
    expect(status).toBe(200);
    expect(body).toMatchObject({ invoice_id: "inv_8Hq2x", status: "cancelled" });
    expect(provider.requests.filter((r) => r.method === "PATCH").map((r) => r.url)).toEqual(["/api/v1/invoices/inv_8Hq2x"]);
    expect(byId(await all("&status=cancelled"), "inv_8Hq2x")).toBeDefined();
  });

  it("changes an invoice whose id has a slash and a space", async () => {
    const { status, body } = await patch("inv/2024 07", { status: "pending", reason: "Reopened" });
    expect(status).toBe(200);
    expect(body.status).toBe("pending");
  });

  it.each(ERROR_STYLES)("a refusal written as %s stays a 422 with the provider's message on /status", async (style) => {
    provider.settings.errorStyle = style;
    const { status, type, body } = await patch("inv/2024 07", { status: "cancelled", reason: "Voided" });
    expect(status).toBe(422);
    expect(type).toBe("application/problem+json");
    expect(body.errors).toEqual([
      expect.objectContaining({ pointer: "/status", detail: "A completed invoice cannot be cancelled; refund it instead" }),
    ]);
    expect(provider.invoice("inv/2024 07")!.status).toBe("completed");
  });

  it.each(ERROR_STYLES)("an unknown id answered as %s is a 404 with the provider's message", async (style) => {
    provider.settings.errorStyle = style;
    const { status, body } = await patch("inv_missing", { status: "pending", reason: "Reopened" });
    expect(status).toBe(404);
    expect(body.detail).toBe("No invoice inv_missing");
  });
});

describe("errors on the list", () => {
  it.each(ERROR_STYLES.filter((s) => !["detail-text", "message", "plain-text"].includes(s)))(
    "a refused filter written as %s is a 422 on /currency with the provider's message",
    async (style) => {
      provider.settings.errorStyle = style;
      const { status, body } = await list("?currency=XRP");
      expect(status).toBe(422);
      expect(body.errors).toEqual([expect.objectContaining({ pointer: "/currency", detail: "Unsupported currency: XRP" })]);
    },
  );

  it.each(["detail-text", "message", "plain-text"] as const)(
    "a refusal written as %s, naming no field, keeps its message",
    async (style) => {
      provider.settings.errorStyle = style;
      const { status, body } = await list("?currency=XRP");
      expect(status).toBe(422);
      expect(body.detail).toBe("Unsupported currency: XRP");
    },
  );
});

describe("currencies", () => {
  it.each(CURRENCY_STYLES)("answered as %s become the console's one list, names falling back to the code", async (style) => {
    provider.settings.currencyStyle = style;
    const { status, body } = await currencies();
    expect(status).toBe(200);
    expect(body.currencies.map((c: { code: string }) => c.code)).toEqual(["BTC", "ETH", "USDT", "LTC"]);
    for (const c of body.currencies)
      expect(c).toEqual({
        code: c.code,
        name: expect.any(String),
        network: expect.toBeOneOf([expect.any(String), null]),
        decimals: expect.toBeOneOf([expect.any(Number), null]),
      });
    expect(body.currencies.find((c: { code: string }) => c.code === "LTC").name).toBe("LTC");
  });

  it("keeps what each shape says: a name, a network, decimals", async () => {
    provider.settings.currencyStyle = "keyed";
    const { body } = await currencies();
    expect(body.currencies).toEqual([
      { code: "BTC", name: "Bitcoin", network: null, decimals: 8 },
      { code: "ETH", name: "Ether", network: null, decimals: null },
      { code: "USDT", name: "USDT", network: "tron", decimals: 6 },
      { code: "LTC", name: "LTC", network: null, decimals: null },
    ]);
  });
});
