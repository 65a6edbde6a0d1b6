import { describe, expect, it } from "vitest";
import { normaliseInvoice } from "@/lib/console/upstream/normalise";
import { pricedIn, pricedInNote, pricedInParts } from "./priced-in";

/* The invoice page's "Priced in …" note, from an archived invoice as the sandbox answers it (read by the upstream normaliser). */
const archived = (patch: Record<string, unknown> = {}) =>
  normaliseInvoice({
    invoice_id: "invoice_1",
    order_id: "LEGACY-1",
    status: "archived",
    fiat_amount: 1155.21,
    fiat_currency: "EUR",
    crypto_amount: 0.5,
    currency: "ETH",
    created_at: "2025-03-01T14:03:27.000Z",
    updated_at: "2025-03-01T14:03:27.000Z",
    priced_in: "crypto",
    payment: {
      address: null,
      network: null,
      amount_due: 0.5,
      amount_received: 0.5,
      rate: 2310.42,
      paid_at: null,
      confirmations: null,
      confirmations_required: null,
      transactions: [],
    },
    ...patch,
  })!;

describe("pricedInNote", () => {
  it("priced in crypto: EUR derived at the rate, on created_at in the person's zone", () => {
    expect(pricedIn(archived())).toBe("crypto");
    expect(pricedInNote(archived(), "Europe/Berlin")).toBe("Priced in ETH; EUR derived at 1 ETH = €2,310.42 on 1 Mar 2025, 15:03 CET");
    expect(pricedInNote(archived(), "UTC")).toBe("Priced in ETH; EUR derived at 1 ETH = €2,310.42 on 1 Mar 2025, 14:03 UTC");
  });

  it("priced in EUR: the crypto amount derived", () => {
    expect(pricedInNote(archived({ priced_in: "fiat" }), "Europe/Berlin")).toBe(
      "Priced in EUR; ETH derived at 1 ETH = €2,310.42 on 1 Mar 2025, 15:03 CET",
    );
  });

  it("reads the rate as people read rates: to the cent from €1 up, four figures below (every digit is the payment's Rate's title)", () => {
    expect(pricedInNote(archived({ payment: { rate: "2310.123456789012345678" } }), "UTC")).toContain("1 ETH = €2,310.12 on");
    expect(pricedInParts(archived({ payment: { rate: "2310.123456789012345678" } }), "UTC")?.exactRate).toBe(
      "1 ETH = €2,310.123456789012345678",
    );
    expect(pricedInNote(archived({ payment: { rate: "0.142345678" } }), "UTC")).toContain("1 ETH = €0.1423 on");
  });

  it.each([
    ["no priced_in", { priced_in: undefined }],
    ["an unknown priced_in", { priced_in: "both" }],
    ["no rate", { payment: { rate: null, amount_due: 0.5 } }],
    ["no payment", { payment: null }],
  ])("says nothing with %s", (_, patch) => {
    expect(pricedInNote(archived(patch), "UTC")).toBeNull();
  });
});
