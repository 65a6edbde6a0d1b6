import { eq } from "drizzle-orm";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { POST } from "@/app/sandbox/api/v1/archived/route";
import { GET as getRoute } from "@/app/sandbox/api/v1/invoices/[id]/route";
import { Big, canonicalDecimal, isLosslessNumber, type LosslessNumber, parseJsonLossless } from "@/lib/contract/money-json";
import { getSandboxDb, SANDBOX_CURRENCIES } from "@/lib/sandbox";
import { invoices } from "@/lib/sandbox/schema";
import { createTestMerchant } from "@/test/sandbox-fixtures";

/*
 * The sandbox keeps each currency's precision. Amounts go in as JSON number literals, are stored
 * with exactly those digits, and come out as JSON number literals with exactly those digits — read here from
 * the answer's text, never through a float. Runs on PGlite, and on PostgreSQL with DATABASE_URL.
 */

const URL_ = "http://sandbox.test/sandbox/api/v1";
let key: string;
let n = 0;
const orderId = () => `PREC-${Date.now().toString(36)}-${++n}`;

beforeAll(async () => {
  key = (await createTestMerchant(await getSandboxDb(), [])).key;
});

/** POSTs `fields` (raw JSON text for the amounts) and returns the status, the raw answer and its lossless parse. */
async function archive(fields: string) {
  const body = `{"order_id":${JSON.stringify(orderId())},${fields}}`;
  const response = await POST(
    new Request(`${URL_}/archived`, { method: "POST", headers: { "content-type": "application/json", "api-key": key }, body }),
    { params: Promise.resolve({}) },
  );
  const text = await response.text();
  return {
    status: response.status,
    text,
    body: parseJsonLossless(text) as Record<string, unknown> & {
      payment: Record<string, unknown>;
      errors?: { pointer: string; code?: string; detail: string }[];
    },
  };
}

/** The digits of a number in an answer parsed losslessly. */
function digits(value: unknown): string {
  if (!isLosslessNumber(value)) throw new Error(`not a JSON number: ${JSON.stringify(value)}`);
  return (value as LosslessNumber).value;
}

async function storedRow(invoiceId: string) {
  const db = await getSandboxDb();
  const [row] = await db
    .select()
    .from(invoices)
    .where(eq(invoices.id, invoiceId.slice("invoice_".length)));
  return row;
}

async function readBack(invoiceId: string): Promise<string> {
  const response = await getRoute(new Request(`${URL_}/invoices/${invoiceId}`, { headers: { "api-key": key } }), {
    params: Promise.resolve({ id: invoiceId }),
  });
  return response.text();
}

/** The largest crypto amount of a currency with every decimal it has: 1.123…, ending in its last place. */
const fullPrecision = (decimals: number) => `1.${"123456789".repeat(3).slice(0, decimals - 1)}7`;

describe("POST /archived keeps every currency's own precision", () => {
  it.each(SANDBOX_CURRENCIES.map((c) => [c.code, c.decimals] as const))(
    "%s: %i decimals in, stored, out — exactly",
    async (code, decimals) => {
      const amount = fullPrecision(decimals);
      expect(amount.split(".")[1]).toHaveLength(decimals);
      const { status, text, body } = await archive(`"currency":"${code}","crypto_amount":${amount}`);
      expect(status, text).toBe(201);
      // The answer's JSON has the literal, not a float's rounding of it.
      expect(text).toContain(`"crypto_amount":${amount},`);
      expect(text).toContain(`"amount_due":${amount},`);
      const row = await storedRow(body.invoice_id as string);
      expect(canonicalDecimal(row.cryptoAmount)).toBe(amount);
      expect(await readBack(body.invoice_id as string)).toBe(text);
    },
  );

  it.each(SANDBOX_CURRENCIES.map((c) => [c.code, c.decimals] as const))(
    "%s: %i decimals + 1 → 422 naming /crypto_amount and the currency's decimals",
    async (code, decimals) => {
      const { status, body } = await archive(`"currency":"${code}","crypto_amount":0.${"0".repeat(decimals)}1`);
      expect(status).toBe(422);
      expect(body.errors).toEqual([
        { pointer: "/crypto_amount", code: expect.any(String), detail: expect.stringContaining(`${decimals} decimal places`) },
      ]);
    },
  );

  it("ETH's 18 decimals as in the issue: 0.123456789012345678", async () => {
    const { status, text } = await archive(`"currency":"ETH","crypto_amount":0.123456789012345678`);
    expect(status).toBe(201);
    expect(text).toContain(`"crypto_amount":0.123456789012345678,`);
  });

  it("reads an exponent as the decimal it is (1.5e-7 BTC is 0.00000015) and writes it without one", async () => {
    const { status, text } = await archive(`"currency":"BTC","crypto_amount":1.5e-7`);
    expect(status).toBe(201);
    expect(text).toContain(`"crypto_amount":0.00000015,`);
  });

  it("derives EUR from any crypto amount to within half a cent of amount × the recorded rate (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...SANDBOX_CURRENCIES),
        // Up to 10^10 units: worth less than the EUR column holds at any simulated rate.
        fc.bigInt({ min: 0n, max: 10n ** 10n }),
        fc.nat({ max: 18 }),
        async (currency, units, shift) => {
          // A whole number of the currency's smallest units, so it has at most its decimals.
          const places = Math.min(shift, currency.decimals);
          const amount = canonicalDecimal(new Big(units.toString()).div(new Big(10).pow(places)).toFixed(places));
          const { status, text, body } = await archive(`"currency":"${currency.code}","crypto_amount":${amount}`);
          expect(status, text).toBe(201);
          expect(digits(body.crypto_amount)).toBe(amount);
          expect(canonicalDecimal((await storedRow(body.invoice_id as string)).cryptoAmount)).toBe(amount);
          const fiat = new Big(digits(body.fiat_amount));
          const exact = new Big(amount).times(digits(body.payment.rate));
          expect(fiat.minus(exact).abs().lte("0.005"), `${fiat} vs ${exact}`).toBe(true);
          expect(digits(body.fiat_amount).split(".")[1]?.length ?? 0).toBeLessThanOrEqual(2);
        },
      ),
      { numRuns: 40 },
    );
  });

  it("derives crypto from any EUR amount to within half of the last quoted place of EUR ÷ rate: min(decimals, 8) places (property)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...SANDBOX_CURRENCIES), fc.bigInt({ min: 0n, max: 10n ** 17n }), async (currency, cents) => {
        const fiat = canonicalDecimal(new Big(cents.toString()).div(100).toFixed(2));
        const { status, text, body } = await archive(`"currency":"${currency.code}","fiat_amount":${fiat}`);
        expect(status, text).toBe(201);
        expect(digits(body.fiat_amount)).toBe(fiat);
        expect(canonicalDecimal((await storedRow(body.invoice_id as string)).fiatAmount)).toBe(fiat);
        const crypto = digits(body.crypto_amount);
        // Quoted as the seed and real processors quote: ETH and SOL to 8 places, not their 18 and 9.
        const places = Math.min(currency.decimals, 8);
        expect(crypto.split(".")[1]?.length ?? 0).toBeLessThanOrEqual(places);
        const rate = new Big(digits(body.payment.rate));
        expect(rate.toFixed().split(".")[1]?.length ?? 0).toBeLessThanOrEqual(8);
        const halfLastPlace = new Big(5).div(new Big(10).pow(places + 1));
        expect(new Big(crypto).minus(new Big(fiat).div(rate)).abs().lte(halfLastPlace), `${crypto} vs ${fiat} / ${rate}`).toBe(true);
      }),
      { numRuns: 40 },
    );
  });
});

describe("POST /archived: EUR in cents, checked on the digits sent, at any size", () => {
  it.each([["134217728.01"], ["134217728.29"], ["100000000000000.01"], ["999999999999999.99"], ["9999999999999999.99"], ["0.01"]])(
    "%s EUR is stored and answered exactly",
    async (fiat) => {
      const { status, text, body } = await archive(`"currency":"BTC","fiat_amount":${fiat}`);
      expect(status, text).toBe(201);
      expect(text).toContain(`"fiat_amount":${fiat},`);
      expect(canonicalDecimal((await storedRow(body.invoice_id as string)).fiatAmount)).toBe(fiat);
    },
  );

  it("trailing zeros are the same amount: 10.10 is 10.1, 12.00 is 12", async () => {
    expect((await archive(`"currency":"BTC","fiat_amount":10.10`)).text).toContain(`"fiat_amount":10.1,`);
    expect((await archive(`"currency":"BTC","fiat_amount":12.00`)).text).toContain(`"fiat_amount":12,`);
  });

  it.each([
    ["134217728.011", "cents"],
    ["100000000000000.001", "cents"],
    ["0.001", "cents"],
    ["10000000000000000", "9,999,999,999,999,999.99"],
    ["1e400", "9,999,999,999,999,999.99"],
    ["1e-400", "cents"],
  ])("%s EUR → 422 on /fiat_amount saying %s", async (fiat, says) => {
    const { status, body } = await archive(`"currency":"BTC","fiat_amount":${fiat}`);
    expect(status).toBe(422);
    expect(body.errors).toEqual([expect.objectContaining({ pointer: "/fiat_amount", detail: expect.stringContaining(says) })]);
  });
});

describe("POST /archived: amounts larger than the ledger's columns → 422 that says the limit", () => {
  it("more than 20 digits of crypto before the point", async () => {
    const { status, body } = await archive(`"currency":"DOGE","crypto_amount":100000000000000000000`);
    expect(status).toBe(422);
    expect(body.errors).toEqual([
      expect.objectContaining({
        pointer: "/crypto_amount",
        detail: expect.stringContaining("99,999,999,999,999,999,999.999999999999999999"),
      }),
    ]);
  });

  it("a crypto amount worth more EUR than the EUR column holds", async () => {
    const { status, body } = await archive(`"currency":"BTC","crypto_amount":99999999999999999999`);
    expect(status).toBe(422);
    expect(body.errors).toEqual([
      expect.objectContaining({
        pointer: "/crypto_amount",
        code: "too_large",
        detail: expect.stringContaining("9,999,999,999,999,999.99 EUR"),
      }),
    ]);
  });

  it("the largest crypto amount that fits both columns is stored exactly", async () => {
    // 10^11 BTC is worth about 6 × 10^15 EUR: under the EUR column's limit.
    const amount = "99999999999.12345678";
    const { status, text } = await archive(`"currency":"BTC","crypto_amount":${amount}`);
    expect(status, text).toBe(201);
    expect(text).toContain(`"crypto_amount":${amount},`);
  });

  it("a negative zero is zero; a negative amount is refused", async () => {
    expect((await archive(`"currency":"BTC","fiat_amount":-0`)).text).toContain(`"fiat_amount":0,`);
    const negative = await archive(`"currency":"BTC","crypto_amount":-0.00000001`);
    expect(negative.status).toBe(422);
    expect(negative.body.errors).toEqual([expect.objectContaining({ pointer: "/crypto_amount", detail: "must be 0 or more" })]);
  });

  it("an amount as a JSON string is still refused: the spec's amounts are numbers", async () => {
    const { status, body } = await archive(`"currency":"BTC","fiat_amount":"10.5"`);
    expect(status).toBe(422);
    expect(body.errors).toEqual([expect.objectContaining({ pointer: "/fiat_amount" })]);
  });

  it("allowed_error_percent is still read as a whole number from the lossless body", async () => {
    const ok = await archive(`"currency":"BTC","fiat_amount":1,"allowed_error_percent":7`);
    expect(ok.text).toContain(`"allowed_error_percent":7,`);
    const bad = await archive(`"currency":"BTC","fiat_amount":1,"allowed_error_percent":7.5`);
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([expect.objectContaining({ pointer: "/allowed_error_percent" })]);
  });
});
