import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { invoiceSchema } from "@/lib/contract";
import { parseJsonLossless } from "@/lib/contract/money-json";
import { retryAfterSeconds } from "./refusals";

const readLosslessJson = (text: string) => parseJsonLossless(text, { duplicateKeys: "last" });

import { readErrorBody, toPointer } from "./error-body";
import { normaliseInvoice, normaliseInvoiceList, toInstant, toNumber } from "./normalise";
import { normaliseCurrencies } from "./normalise-currencies";
import { normaliseRates } from "./normalise-rates";

describe("toInstant: any ISO 8601 form → UTC ISO", () => {
  it.each([
    ["2026-03-01T09:15:00Z", "2026-03-01T09:15:00.000Z"],
    ["2026-03-01T09:15:00", "2026-03-01T09:15:00.000Z"], // no offset: UTC
    ["2026-03-01 09:15", "2026-03-01T09:15:00.000Z"],
    ["2026-03-01T09:15:00.123456789Z", "2026-03-01T09:15:00.123Z"],
    ["2026-03-01T09:15:00.5+00:00", "2026-03-01T09:15:00.500Z"],
    ["2026-03-01T10:15:00+0100", "2026-03-01T09:15:00.000Z"],
    ["2026-03-01T04:15:00-05", "2026-03-01T09:15:00.000Z"],
    ["2026-03-01", "2026-03-01T00:00:00.000Z"],
    ["2026-03-01T09:15:00.000Z", "2026-03-01T09:15:00.000Z"], // already the console's form: kept
    ["2028-02-29T23:59:59.999Z", "2028-02-29T23:59:59.999Z"],
  ])("%s → %s", (input, expected) => expect(toInstant(input)).toBe(expected));

  it("keeps any string in its own form exactly when it names a real instant", () => {
    const digits = (n: number) => fc.stringMatching(new RegExp(`^\\d{${n}}$`));
    const canonical = fc
      .tuple(digits(4), digits(2), digits(2), digits(2), digits(2), digits(2), digits(3))
      .map(([y, mo, d, h, mi, s, ms]) => `${y}-${mo}-${d}T${h}:${mi}:${s}.${ms}Z`);
    const real = fc
      .date({ min: new Date("0001-01-01T00:00:00.000Z"), max: new Date("9999-12-31T23:59:59.999Z"), noInvalidDate: true })
      .map((d) => d.toISOString());
    fc.assert(
      fc.property(fc.oneof(canonical, real), (value) => {
        const date = new Date(value);
        const names = !Number.isNaN(date.getTime()) && date.toISOString() === value && !value.startsWith("0000");
        expect(toInstant(value)).toBe(names ? value : null);
      }),
      { numRuns: 2000 },
    );
  });

  it.each([
    "last tuesday",
    "2026-02-30T00:00:00Z",
    "2026-02-30T00:00:00.000Z",
    "2027-02-29T00:00:00.000Z",
    "2026-03-01T24:00:00.000Z",
    "0000-01-01T00:00:00.000Z",
    "",
    1767225600,
    null,
  ])("%s → null", (input) => expect(toInstant(input)).toBeNull());
});

describe("toNumber", () => {
  it.each([
    [12.5, 12.5],
    ["12.50", 12.5],
    [" 1e-8 ", 1e-8],
    ["n/a", null],
    ["", null],
    [true, null],
  ])("%s → %s", (input, expected) => expect(toNumber(input)).toBe(expected));
});

describe("normaliseInvoice", () => {
  it("has no id → null; an id under `id` or as a number is used as text", () => {
    expect(normaliseInvoice({ status: "new" })).toBeNull();
    expect(normaliseInvoice({ id: 7 })!.invoice_id).toBe("7");
  });

  it("gives every absent or odd value as null and the fiat currency as EUR", () => {
    expect(normaliseInvoice({ invoice_id: "x", fiat_amount: {}, status: true, payment: null })).toEqual({
      invoice_id: "x",
      order_id: null,
      order_name: null,
      status: null,
      fiat_amount: null,
      fiat_currency: "EUR",
      crypto_amount: null,
      currency: null,
      allowed_error_percent: null,
      callback_url: null,
      created_at: null,
      updated_at: null,
      expires_at: null,
      priced_in: null,
      payment: null,
      provider_fields: [],
    });
  });

  it("reads priced_in when it is fiat or crypto; any other value stays the provider's own field", () => {
    expect(normaliseInvoice({ invoice_id: "x", priced_in: "crypto" })).toMatchObject({ priced_in: "crypto", provider_fields: [] });
    expect(normaliseInvoice({ invoice_id: "x", priced_in: "EUR" })).toMatchObject({
      priced_in: null,
      provider_fields: [{ key: "priced_in", value: "EUR" }],
    });
  });

  it("drops an explorer link that is not http(s)", () => {
    const invoice = normaliseInvoice({
      invoice_id: "x",
      payment: { transactions: [{ tx_hash: "h", explorer_url: "javascript:alert(1)" }] },
    });
    expect(invoice!.payment!.transactions[0].explorer_url).toBeNull();
  });

  it("is idempotent on its own output, so the browser may read it again", () => {
    const once = normaliseInvoice({ invoice_id: "x", fiat_amount: "1.5", created_at: "2026-01-01T00:00:00" })!;
    const { provider_fields: _, ...fields } = once;
    expect(normaliseInvoice(fields)).toEqual(once);
  });
});

describe("normaliseInvoiceList", () => {
  it("leaves out an item without an id and counts it; derives pagination it lacks", () => {
    const list = normaliseInvoiceList({ data: [{ invoice_id: "a" }, { nothing: true }] })!;
    expect(list.items.map((i) => i.invoice_id)).toEqual(["a"]);
    expect(list.skipped).toBe(1);
    expect(list.pagination).toMatchObject({ current_page: 1, total_records: 2, has_next: false });
  });

  it("is null without any list of items", () => expect(normaliseInvoiceList({ items: "nope" })).toBeNull());
});

describe("normaliseCurrencies", () => {
  it.each([
    [["BTC", "ETH"]],
    [[{ code: "BTC" }, { symbol: "ETH", name: "Ether" }]],
    [{ BTC: { name: "Bitcoin" }, ETH: "Ether" }],
    [{ currencies: ["BTC", "ETH"] }],
    [{ data: { BTC: true, ETH: true } }],
    [{ items: [{ code: "BTC" }, { code: "ETH" }] }],
  ])("reads %j", (raw) => expect(normaliseCurrencies(raw)!.currencies.map((c) => c.code)).toEqual(["BTC", "ETH"]));

  it.each([[{ currencies: "none" }], ["BTC"], [{ status: "ok" }]])("refuses %j", (raw) => expect(normaliseCurrencies(raw)).toBeNull());
});

describe("readErrorBody", () => {
  const cases: [string, string, string | null, { pointer: string; detail: string }[]][] = [
    [
      "RFC 9457",
      JSON.stringify({ title: "Invalid", status: 422, detail: "One field", errors: [{ pointer: "#/status", detail: "bad" }] }),
      "One field",
      [{ pointer: "/status", detail: "bad" }],
    ],
    [
      "RFC 7807 invalid-params",
      JSON.stringify({ title: "Invalid", "invalid-params": [{ name: "status", reason: "bad" }] }),
      "Invalid",
      [{ pointer: "/status", detail: "bad" }],
    ],
    [
      "FastAPI",
      JSON.stringify({ detail: [{ loc: ["body", "status"], msg: "bad", type: "value_error" }] }),
      "status: bad",
      [{ pointer: "/status", detail: "bad" }],
    ],
    ["detail text", JSON.stringify({ detail: "Nope" }), "Nope", []],
    [
      "field map",
      JSON.stringify({ errors: { status: ["bad", "worse"] } }),
      "status: bad; status: worse",
      [
        { pointer: "/status", detail: "bad" },
        { pointer: "/status", detail: "worse" },
      ],
    ],
    ["Stripe", JSON.stringify({ error: { message: "bad", param: "status" } }), "bad", [{ pointer: "/status", detail: "bad" }]],
    ["error text", JSON.stringify({ error: "Nope" }), "Nope", []],
    ["message", JSON.stringify({ message: "Nope" }), "Nope", []],
    ["plain text", "Nope", "Nope", []],
    ["HTML", "<!doctype html><p>502</p>", null, []],
  ];
  it.each(cases)("%s", (_, body, message, errors) => {
    const read = readErrorBody(body, body.startsWith("<") ? "text/html" : null);
    expect(read.message).toBe(message);
    expect(read.errors.map(({ pointer, detail }) => ({ pointer, detail }))).toEqual(errors);
  });

  it.each([
    ["status", "/status"],
    ["/status", "/status"],
    ["#/items/0/amount", "/items/0/amount"],
    ["body.status", "/status"],
    ["items[0].amount", "/items/0/amount"],
  ])("pointer of %s is %s", (field, pointer) => expect(toPointer(field)).toBe(pointer));
});

describe("normaliseRates: spec §4.6 in any reasonable shape", () => {
  // Decimal strings, whatever form the provider wrote them in.
  const expected = { rates: { BTC: "61234.5", ETH: "3180.12" } };
  it.each([
    ["the spec's rates object", { rates: { BTC: 61234.5, ETH: 3180.12 } }],
    ["numbers as strings", { rates: { BTC: "61234.5", ETH: " 3180.12 " } }],
    ["wrapped in data", { data: { BTC: 61234.5, ETH: 3180.12 } }],
    ["wrapped twice", { data: { rates: { btc: 61234.5, eth: 3180.12 } } }],
    ["a bare object keyed by code", { BTC: 61234.5, ETH: 3180.12 }],
    [
      "a list of {code, rate}",
      [
        { code: "BTC", rate: 61234.5 },
        { code: "ETH", rate: "3180.12" },
      ],
    ],
    [
      "a list of {currency, price} in rates",
      {
        rates: [
          { currency: "btc", price: 61234.5 },
          { symbol: "ETH", value: 3180.12 },
        ],
      },
    ],
    ["objects per code", { rates: { BTC: { eur: 61234.5 }, ETH: { rate: "3180.12" } } }],
  ])("%s", (_, raw) => {
    expect(normaliseRates(raw)).toEqual(expected);
  });

  it("leaves out what is not a positive number and keeps the rest", () => {
    expect(normaliseRates({ rates: { BTC: 61234.5, XYZ: "n/a", NEG: -1, ZERO: 0, NUL: null } })).toEqual({ rates: { BTC: "61234.5" } });
  });

  it.each([[null], ["rates"], [{}], [{ rates: {} }], [[]], [{ message: "ok" }]])("%j is no rates at all → null", (raw) => {
    expect(normaliseRates(raw)).toBeNull();
  });
});

describe("retryAfterSeconds", () => {
  const now = Date.parse("2026-11-23T10:00:00Z");
  it.each([
    ["30", 30],
    [" 5 ", 5],
    ["Mon, 23 Nov 2026 10:00:45 GMT", 45],
    ["Mon, 23 Nov 2026 09:00:00 GMT", 0],
    [null, 60],
    ["soon", 60],
  ])("%j → %i s", (header, seconds) => {
    expect(retryAfterSeconds(header, now)).toBe(seconds);
  });
});

describe("amounts read losslessly from the provider's JSON", () => {
  const wire = `{"invoice_id": 48213, "fiat_amount": 100000000000000.01, "crypto_amount": 0.123456789012345678, "confirmations_total": 12,
    "payment": {"amount_due": 12345.123456789012345678, "amount_received": 1e-18, "rate": 3180.10, "confirmations": 3,
      "transactions": [{"tx_hash": "0xaa", "amount": 0.000000000000000001, "block_height": 23480001}]},
    "risk_score": 0.123456789012345678, "note": {"score": 0.5}}`;

  it("keeps every digit of every amount, as canonical decimal strings; ids, counts and heights as before", () => {
    // What JSON.parse would have made of them: the floats the console never uses for money.
    expect(String((JSON.parse(wire) as { crypto_amount: number }).crypto_amount)).toBe("0.12345678901234568");
    const invoice = normaliseInvoice(readLosslessJson(wire))!;
    expect(invoice).toMatchObject({ invoice_id: "48213", fiat_amount: "100000000000000.01", crypto_amount: "0.123456789012345678" });
    expect(invoice.payment).toMatchObject({
      amount_due: "12345.123456789012345678",
      amount_received: "0.000000000000000001",
      rate: "3180.10",
      confirmations: 3,
    });
    expect(invoice.payment!.transactions[0]).toMatchObject({ amount: "0.000000000000000001", block_height: 23480001 });
    // The provider's own fields reach the page as plain JSON, no digit lost: a number when a float keeps it exactly, else its text.
    expect(invoice.provider_fields).toEqual([
      { key: "confirmations_total", value: 12 },
      { key: "risk_score", value: "0.123456789012345678" },
      { key: "note", value: { score: 0.5 } },
    ]);
    expect(invoiceSchema.parse(invoice)).toEqual(invoice);
  });

  it("reads rates, lists and pagination from number literals", () => {
    expect(normaliseRates(readLosslessJson('{"rates": {"BTC": 61234.50, "SHIB": 0.000012345678901234}}'))).toEqual({
      rates: { BTC: "61234.50", SHIB: "0.000012345678901234" },
    });
    const list = normaliseInvoiceList(
      readLosslessJson(
        '{"items": [{"id": 1, "fiat_amount": 12345.123456789012345678}], "pagination": {"current_page": 1, "page_size": 20, "total_records": 1}}',
      ),
    )!;
    expect(list.items[0].fiat_amount).toBe("12345.123456789012345678");
    expect(list.pagination).toMatchObject({ current_page: 1, page_size: 20, total_records: 1, total_pages: 1 });
  });

  it("a key given twice keeps its last value, as JSON.parse does; not JSON is a SyntaxError", () => {
    expect(readLosslessJson('{"a": 1, "a": 2}')).toEqual({ a: 2 });
    expect(readLosslessJson('{"a": 1, "a": 2, "b": 0.123456789012345678}')).toEqual({
      a: 2,
      b: expect.objectContaining({ value: "0.123456789012345678" }),
    });
    expect(() => readLosslessJson("{nope")).toThrow(SyntaxError);
    expect(() => readLosslessJson("{nope: 0.123456789012345678}")).toThrow(SyntaxError);
  });

  it("reads a literal a float writes back unchanged as a number, and any other as its text", () => {
    expect(readLosslessJson('{"fiat_amount": 49.9, "crypto_amount": 0.00091929, "items": [1, -2, 300000]}')).toEqual({
      fiat_amount: 49.9,
      crypto_amount: 0.00091929,
      items: [1, -2, 300000],
    });
    for (const literal of ["0.123456789012345678", "12.50", "-0", "100000000000000.01", "1E3", "0.10", "1.0e-7"]) {
      const read = readLosslessJson(`{"other": 1, "amount": ${literal}}`) as { amount: { value: string } };
      expect(read.amount.value, literal).toBe(literal);
    }
    // Text inside a string that looks like a literal never costs a digit.
    const read = readLosslessJson('{"note": "a:0.123456789012345678", "amount": 49.9}') as { note: string; amount: unknown };
    expect(read.note).toBe("a:0.123456789012345678");
    expect(String((read.amount as { value?: string }).value ?? read.amount)).toBe("49.9");
    expect(readLosslessJson("0.123456789012345678")).toEqual(expect.objectContaining({ value: "0.123456789012345678" }));
  });
});
