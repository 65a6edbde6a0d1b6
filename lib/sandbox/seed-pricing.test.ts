import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as getRoute } from "@/app/sandbox/api/v1/invoices/[id]/route";
import { Big, canonicalDecimal, type LosslessNumber, parseJsonLossless } from "@/lib/contract/money-json";
import type { Db } from "@/lib/platform/db";
import { getSandboxDb } from "@/lib/sandbox";
import { invoices } from "@/lib/sandbox/schema";
import { createTestMerchant } from "@/test/sandbox-fixtures";
import { createArchivedInvoice } from "./archived";
import { findCurrency } from "./currencies";
import { SCOPES } from "./keys";
import { marketRate } from "./market";
import { seedInvoices } from "./seed";

/*
 * Every invoice the seed makes is priced at the market's rate of its own created_at, by the pricing
 * rule POST /archived uses, so that archiving it again with its EUR amount and created_at gives the same record.
 * Runs on PGlite, and on PostgreSQL with DATABASE_URL.
 */

const NOW = new Date("2026-11-23T10:00:00Z");
const COUNT = 3_000;
let db: Db;
let merchantId: string;
let key: string;
let rows: (typeof invoices.$inferSelect)[];

beforeAll(async () => {
  db = await getSandboxDb();
  ({ merchantId, key } = await createTestMerchant(db, []));
  await seedInvoices(db, { merchantId, count: COUNT, seed: 0.61, now: NOW });
  rows = await db.select().from(invoices).where(eq(invoices.merchantId, merchantId));
});

const canonical = (text: string | null) => (text === null ? null : canonicalDecimal(text));

describe("the seed's prices", () => {
  it("records on every invoice, archived ones too, the market's rate of the minute of its created_at", () => {
    expect(rows).toHaveLength(COUNT);
    expect(new Set(rows.map((r) => r.status))).toContain("archived");
    for (const row of rows) {
      expect(canonical(row.rate), `${row.currency} at ${row.createdAt.toISOString()}`).toBe(marketRate(row.currency, row.createdAt));
    }
  });

  it("derives every crypto amount from the EUR amount: EUR ÷ rate, half up to min(decimals, 8) places", () => {
    for (const row of rows) {
      const places = Math.min(findCurrency(row.currency)!.decimals, 8);
      const quotient = new Big(row.fiatAmount).div(row.rate!);
      const crypto = new Big(row.cryptoAmount);
      expect(crypto.toFixed().split(".")[1]?.length ?? 0).toBeLessThanOrEqual(places);
      // Within half the last place of the exact quotient (that it is the same rounding as POST /archived: below).
      expect(
        crypto
          .minus(quotient)
          .abs()
          .lte(new Big(5).div(new Big(10).pow(places + 1))),
        `${row.fiatAmount} / ${row.rate} = ${row.cryptoAmount}`,
      ).toBe(true);
    }
  });

  it("marks the seeded archived invoices as priced in EUR, as POST /archived does, and no other", () => {
    for (const row of rows) expect(row.pricedIn, row.status).toBe(row.status === "archived" ? "fiat" : null);
  });

  it("answers a seeded archived invoice with priced_in and its rate, and no payment address", async () => {
    const row = rows.find((r) => r.status === "archived")!;
    const id = `invoice_${row.id}`;
    const response = await getRoute(new Request(`http://sandbox.test/sandbox/api/v1/invoices/${id}`, { headers: { "api-key": key } }), {
      params: Promise.resolve({ id }),
    });
    const body = parseJsonLossless(await response.text()) as {
      priced_in: string;
      payment: { address: null; rate: LosslessNumber; amount_received: null };
    };
    expect(body.priced_in).toBe("fiat");
    expect(body.payment.address).toBeNull();
    expect(body.payment.amount_received).toBeNull();
    expect(body.payment.rate.value).toBe(marketRate(row.currency, row.createdAt));
  });

  it("re-archived under another order id with its EUR amount and created_at, a seeded invoice is the same: EUR, crypto and rate", async () => {
    const caller = { keyId: "seed-pricing-test", merchantId, scopes: SCOPES };
    // Every 15th invoice: ~200 of all statuses, currencies and ages.
    const sample = rows.filter((_, i) => i % 15 === 0);
    expect(sample.length).toBeGreaterThanOrEqual(200);
    for (const row of sample) {
      const again = await createArchivedInvoice(
        db,
        caller,
        {
          order_id: `AGAIN-${row.orderId}`,
          currency: row.currency,
          fiat_amount: canonicalDecimal(row.fiatAmount),
          created_at: row.createdAt.toISOString(),
        },
        NOW,
      );
      const what = `${row.orderId} ${row.currency} ${row.createdAt.toISOString()}`;
      expect(again.created_at, what).toBe(row.createdAt.toISOString());
      expect(again.fiat_amount.value, what).toBe(canonicalDecimal(row.fiatAmount));
      expect(again.crypto_amount.value, what).toBe(canonicalDecimal(row.cryptoAmount));
      expect(again.payment?.rate?.value, what).toBe(canonicalDecimal(row.rate!));
    }
  });
});
