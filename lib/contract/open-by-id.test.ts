import { describe, expect, it } from "vitest";
import { openByIdTarget } from "./open-by-id";
import type { SearchMatch, SearchResult } from "./search";

const hit = (invoice_id: string, match: SearchMatch, order_id: string | null = null): SearchResult => ({
  invoice_id,
  order_id,
  order_name: null,
  status: "pending",
  fiat_amount: null,
  fiat_currency: null,
  crypto_amount: null,
  currency: null,
  created_at: null,
  updated_at: null,
  match,
});

describe("openByIdTarget", () => {
  it("opens the one invoice with this order id", () => {
    expect(openByIdTarget(" ORD-1 ", [hit("inv_a", "order_id", "ORD-1"), hit("inv_b", "order_id_prefix", "ORD-10")])).toEqual({
      kind: "invoice",
      id: "inv_a",
    });
  });

  it("opens the one invoice whose id (or its tail) this is", () => {
    expect(openByIdTarget("0196a1b2c3d4", [hit("invoice_0196a1b2c3d4", "invoice_id")])).toEqual({
      kind: "invoice",
      id: "invoice_0196a1b2c3d4",
    });
  });

  it("lists the invoices that share an order id, filtered by it as the index holds it", () => {
    expect(openByIdTarget("ord-7", [hit("inv_a", "order_id", "ORD-7"), hit("inv_b", "order_id", "ORD-7")])).toEqual({
      kind: "list",
      q: "ORD-7",
    });
  });

  it("prefers an invoice id typed in full over other matches", () => {
    expect(openByIdTarget("inv_a", [hit("inv_x", "order_id", "inv_a"), hit("inv_a", "invoice_id")])).toEqual({
      kind: "invoice",
      id: "inv_a",
    });
  });

  it("lists several invoices that share a tail", () => {
    expect(openByIdTarget("12345678", [hit("a_12345678", "invoice_id"), hit("b_12345678", "invoice_id")])).toEqual({
      kind: "list",
      q: "12345678",
    });
  });

  it("tries what was typed as an invoice id when nothing matches by id (words and prefixes do not count)", () => {
    expect(openByIdTarget(" inv/2024 07 ", [])).toEqual({ kind: "invoice", id: "inv/2024 07" });
    expect(openByIdTarget("ORD", [hit("inv_a", "order_id_prefix", "ORD-1"), hit("inv_b", "words")])).toEqual({
      kind: "invoice",
      id: "ORD",
    });
  });
});
