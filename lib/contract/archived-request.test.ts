import { describe, expect, it } from "vitest";
import { archivedInvoiceRequestFields, archivedInvoiceRequestJson, archivedInvoiceRequestSchema } from "./archived-request";
import { jsonNumber } from "./money-json";

describe("an archive request's fields left empty (one rule for what is sent and what the audit log records)", () => {
  const body = archivedInvoiceRequestSchema.parse({
    order_id: "ORD-1",
    order_name: null,
    currency: "btc",
    crypto_amount: jsonNumber("0.123456789012345678"),
    callback_url: null,
  });

  it("drops null and absent fields and keeps the others in their order", () => {
    expect(archivedInvoiceRequestFields(body)).toEqual({ order_id: "ORD-1", crypto_amount: "0.123456789012345678", currency: "BTC" });
    expect(Object.keys(archivedInvoiceRequestFields(body))).toEqual(Object.keys(body).filter((k) => body[k as keyof typeof body] != null));
  });

  it("sends the same fields, amounts as JSON numbers with every digit", () => {
    expect(archivedInvoiceRequestJson(body)).toBe('{"order_id":"ORD-1","crypto_amount":0.123456789012345678,"currency":"BTC"}');
  });
});

describe("an archive request's text", () => {
  it("refuses an order id or name with a character that reorders text, naming the field", () => {
    const issues = (fields: Record<string, unknown>) =>
      archivedInvoiceRequestSchema
        .safeParse({ order_id: "ORD-1", currency: "BTC", crypto_amount: jsonNumber("1"), ...fields })
        .error?.issues.map((i) => [i.path.join("."), i.message]);
    expect(issues({ order_id: "ORD-\u202Efdp.exe" })).toEqual([["order_id", expect.stringMatching(/change the text's direction/)]]);
    expect(issues({ order_name: "Boots \u2066x\u2069" })).toEqual([["order_name", expect.stringMatching(/change the text's direction/)]]);
    expect(issues({ order_id: "N\u0000UL" })).toEqual([["order_id", expect.stringMatching(/^must not contain control characters/)]]);
    expect(issues({ order_name: "Émile's boots — 42 (שלום)" })).toBeUndefined();
  });
});

describe("an archive request's created_at", () => {
  const message = (created_at: string) =>
    archivedInvoiceRequestSchema.safeParse({ order_id: "ORD-1", currency: "BTC", crypto_amount: jsonNumber("1"), created_at }).error
      ?.issues[0]?.message;

  it("says which day does not exist, and that a day is written year first", () => {
    expect(message("2025-13-01")).toMatch(/^has 2025-13-01, which is not a day of the calendar; must be a date \(2026-01-31\)/);
    expect(message("2025-02-29T10:00:00Z")).toMatch(/^has 2025-02-29, which is not a day of the calendar/);
    expect(message("31/12/2024")).toBe("must be written year first, as YYYY-MM-DD (2026-01-31)");
    expect(message("yesterday")).toBe("must be a date (2026-01-31) or a date-time with an offset (2026-01-31T12:00:00+01:00)");
    expect(message("2024-12-31")).toBeUndefined();
  });
});
