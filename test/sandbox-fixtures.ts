import "server-only";
import { randomUUID } from "node:crypto";
import { v7 as uuidv7 } from "uuid";
import { numberToDecimal } from "@/lib/contract/money-json";
import type { Db } from "@/lib/platform/db";
import { apiKeys, invoices, merchants } from "@/lib/sandbox/schema";
import { hashKey, SCOPES } from "../lib/sandbox/keys";

type AmountColumn = "fiatAmount" | "cryptoAmount" | "amountReceived" | "rate";
/** An invoice row for a test; its amounts may be written as number literals, stored as the decimals they print as. */
export type FixtureInvoice = Partial<Omit<typeof invoices.$inferInsert, AmountColumn>> & { createdAt: Date } & {
  [K in AmountColumn]?: string | number | null;
};

const decimal = (value: string | number | null | undefined) => (typeof value === "number" ? numberToDecimal(value) : value);

/**
 * A merchant of its own with a key and exactly the invoices a test describes, so tests see only their own
 * data even on a shared PostgreSQL server.
 */
export async function createTestMerchant(db: Db, rows: FixtureInvoice[], scopes: string[] = [...SCOPES]) {
  const merchantId = randomUUID();
  const key = `sk_test_${merchantId.replaceAll("-", "")}`;
  await db.insert(merchants).values({ id: merchantId, name: "Test merchant", webhookSecret: "whsec_dGVzdA==" });
  await db.insert(apiKeys).values({ merchantId, name: "test", keyHash: hashKey(key), keyPrefix: key.slice(0, 12), scopes });
  const inserted = rows.length
    ? await db
        .insert(invoices)
        .values(
          rows.map((r, i) => ({
            id: uuidv7({ msecs: r.createdAt.getTime() }),
            orderId: `T-${i + 1}`,
            status: "new",
            currency: "BTC",
            allowedErrorPercent: 1,
            updatedAt: r.createdAt,
            ...r,
            fiatAmount: decimal(r.fiatAmount) ?? "10",
            cryptoAmount: decimal(r.cryptoAmount) ?? "0.001",
            amountReceived: decimal(r.amountReceived),
            rate: decimal(r.rate),
            merchantId,
          })),
        )
        .returning()
    : [];
  return { merchantId, key, invoices: inserted };
}
