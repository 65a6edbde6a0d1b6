import { isLosslessNumber, parse as parseLossless } from "lossless-json";
import Papa from "papaparse";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Invoice, invoiceListSchema, invoiceSchema } from "@/lib/contract";
import { onSecondProvider } from "@/test/on-second-provider";
import { EXACT_AMOUNTS } from "@/test/second-provider";

/**
 * Exact amounts from wire to file: a provider sends amounts as JSON numbers no float holds (18 decimals of ETH,
 * 1 wei, 15-digit euros). The console's routes must hand the browser those exact digits as strings, and the
 * exports must write them as they came — through the real routes, upstream client and HTTP.
 */
type Route<P> = (request: Request, context: { params: Promise<P> }) => Promise<Response>;
const provider = onSecondProvider();
let listRoute: Route<never>;
let invoiceGet: Route<{ id: string }>;
let exportRoute: Route<never>;
let cookie: string;

beforeAll(async () => {
  ({ GET: listRoute } = await import("@/app/api/invoices/route"));
  ({ GET: invoiceGet } = await import("@/app/api/invoices/[id]/route"));
  ({ GET: exportRoute } = await import("@/app/api/invoices/export/route"));
  cookie = await (await import("@/lib/console/auth/signed-in-cookie")).signedInCookie("viewer");
});

beforeEach(() => {
  provider.settings.exactAmounts = true;
});

const call = <P>(route: Route<P>, path: string, params: P) =>
  route(new Request(`http://console.test${path}`, { headers: { cookie } }), { params: Promise.resolve(params) });

/** What a float would have made of them: the bug. */
const FLOATS = ["0.12345678901234568", "12345.123456789011", "100000000000000.02"];

function expectExact(invoice: Invoice) {
  expect(invoice).toMatchObject({
    fiat_amount: EXACT_AMOUNTS.fiat_amount,
    crypto_amount: EXACT_AMOUNTS.crypto_amount,
    fiat_currency: "EUR",
    currency: "ETH",
  });
  expect(invoice.payment).toMatchObject({
    amount_due: EXACT_AMOUNTS.amount_due,
    amount_received: EXACT_AMOUNTS.amount_paid,
    rate: EXACT_AMOUNTS.exchange_rate,
  });
  expect(invoice.payment!.transactions[0]).toMatchObject({ tx_hash: "0xexact", amount: EXACT_AMOUNTS.tx_value });
}

describe("exact amounts from a provider's JSON numbers", () => {
  it("the provider really sends them as number literals, not strings", async () => {
    const response = await fetch(`${provider.url}/invoices/inv_exact`, { headers: { "api-key": provider.key } });
    const text = await response.text();
    expect(text).toContain(`"crypto_amount":${EXACT_AMOUNTS.crypto_amount}`);
    expect(text).toContain(`"fiat_amount":${EXACT_AMOUNTS.fiat_amount}`);
  });

  it("GET /api/invoices gives the browser every digit, as strings the browser's schema reads back unchanged", async () => {
    const response = await call(listRoute, "/api/invoices?page_size=100&currency=ETH", undefined as never);
    expect(response.status).toBe(200);
    const text = await response.text();
    for (const digits of Object.values(EXACT_AMOUNTS)) expect(text).toContain(`"${digits}"`);
    for (const float of FLOATS) expect(text).not.toContain(float);
    const body = invoiceListSchema.parse(JSON.parse(text));
    const exact = body.items.find((i) => i.invoice_id === "inv_exact")!;
    expectExact(exact);
    // Every other amount is a decimal string too, e.g. "12.50" and 249 from the seeded invoices.
    for (const item of body.items) if (item.crypto_amount !== null) expect(typeof item.crypto_amount).toBe("string");
  });

  it("GET /api/invoices/{id} does the same for one invoice", async () => {
    const response = await call(invoiceGet, "/api/invoices/inv_exact", { id: "inv_exact" });
    expect(response.status).toBe(200);
    const body = invoiceSchema.parse(await response.json());
    expectExact(body);
  });

  it("the CSV export writes the provider's digits as they came", async () => {
    const response = await call(exportRoute, "/api/invoices/export?format=csv&currency=ETH", undefined as never);
    expect(response.status).toBe(200);
    const text = await response.text();
    const rows = Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ""), { header: true, skipEmptyLines: true }).data;
    expect(rows.find((r) => r.invoice_id === "inv_exact")).toMatchObject({
      fiat_amount: EXACT_AMOUNTS.fiat_amount,
      crypto_amount: EXACT_AMOUNTS.crypto_amount,
      payment_amount_due: EXACT_AMOUNTS.amount_due,
      payment_amount_received: EXACT_AMOUNTS.amount_paid,
      payment_rate: EXACT_AMOUNTS.exchange_rate,
    });
    for (const float of FLOATS) expect(text).not.toContain(float);
    // The seeded "12.50"-style strings keep their trailing zeros too.
    expect(rows.find((r) => r.invoice_id === "48213")).toMatchObject({ fiat_amount: "249", crypto_amount: "0.0783" });
  });

  it("the JSON export writes them as raw JSON numbers with exactly those digits", async () => {
    const response = await call(exportRoute, "/api/invoices/export?format=json&currency=ETH", undefined as never);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toContain(`"crypto_amount":${EXACT_AMOUNTS.crypto_amount},`);
    expect(text).toContain(`"fiat_amount":${EXACT_AMOUNTS.fiat_amount},`);
    expect(text).toContain(`"amount_due":${EXACT_AMOUNTS.amount_due},`);
    expect(text).toContain(`"amount_received":${EXACT_AMOUNTS.amount_paid},`);
    expect(text).toContain(`"rate":${EXACT_AMOUNTS.exchange_rate},`);
    for (const float of FLOATS) expect(text).not.toContain(float);
    const body = parseLossless(text) as { items: Record<string, unknown>[]; complete: boolean };
    expect(body.complete).toBe(true);
    const exact = body.items.find((i) => i.invoice_id === "inv_exact")!;
    expect(isLosslessNumber(exact.crypto_amount) && exact.crypto_amount.value).toBe(EXACT_AMOUNTS.crypto_amount);
  });
});
