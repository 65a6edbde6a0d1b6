import "server-only";
import { v7 as uuidv7 } from "uuid";
import {
  ALLOWED_ERROR_PERCENT_DEFAULT,
  type ArchivedInvoiceInput,
  CRYPTO_AMOUNT_LIMIT,
  FIAT_AMOUNT_LIMIT,
  groupDigits,
} from "@/lib/contract";
import { decimalShape } from "@/lib/contract/money-json";
import { Problem } from "@/lib/contract/problem";
import type { Db } from "@/lib/platform/db";
import { invoices } from "@/lib/sandbox/schema";
import { findCurrency, SANDBOX_CURRENCIES } from "./currencies";
import { getInvoice } from "./invoices";
import type { Caller } from "./keys";
import { marketRate } from "./market";
import { deriveCrypto, deriveFiat, quoteDecimals } from "./pricing";
import type { WireInvoice } from "./wire";

const invalid = (pointer: string, code: string, detail: string, title = "The body is not valid") =>
  Problem.of("validation_failed", { title, detail: `${pointer.slice(1)} ${detail}`, errors: [{ pointer, code, detail }] });

/** EUR per unit of `code` at `at`: the market's rate of that minute, with its 8 places (lib/sandbox/market.ts). */
function recordedRate(code: string, at: Date): string {
  return marketRate(code, at)!;
}

/**
 * POST /archived (spec §4.5): a historical invoice in `archived` status. Exactly one amount is given; the
 * other is derived at the market's rate at the invoice's created_at, which is recorded on the invoice with
 * which amount was given (`priced_in`). Amounts are decimals throughout: the given one is stored
 * with exactly the digits sent, the other is worked out with big.js by the sandbox's one pricing rule (lib/sandbox/pricing.ts): EUR rounded half up to the cent, crypto
 * to the currency's quote decimals, min(decimals, 8) — as the seed prices its invoices, so that an invoice
 * archived again with its EUR amount and created_at gets the same crypto amount. A given crypto amount keeps
 * up to the currency's own decimals (ETH 18, SOL 9, …). The order id is unique per merchant by a unique
 * index: of two requests racing with one order id, the database lets one insert and the other is told the
 * order is already recorded. Archived invoices have
 * no payment address and send no webhook.
 */
export async function createArchivedInvoice(db: Db, caller: Caller, input: ArchivedInvoiceInput, now = new Date()): Promise<WireInvoice> {
  const currency = findCurrency(input.currency);
  if (!currency) {
    throw invalid(
      "/currency",
      "unsupported_currency",
      `must be one of the supported currencies (${SANDBOX_CURRENCIES.map((c) => c.code).join(", ")}); see GET /currencies`,
    );
  }
  const createdAt = input.created_at ? new Date(input.created_at) : now;
  // The market's rate when the invoice was made (its price history is a pure function of the minute), not
  // today's: a 2025 invoice given in EUR is worth the crypto of its day.
  const rate = recordedRate(currency.code, createdAt);

  let fiatAmount: string;
  let cryptoAmount: string;
  if (input.fiat_amount != null) {
    fiatAmount = input.fiat_amount;
    cryptoAmount = deriveCrypto(fiatAmount, rate, quoteDecimals(currency));
    if (decimalShape(cryptoAmount).integerDigits > CRYPTO_AMOUNT_LIMIT.integerDigits) {
      throw invalid(
        "/fiat_amount",
        "too_large",
        `buys more than ${groupDigits(CRYPTO_AMOUNT_LIMIT.max)} ${currency.code} at the rate of ${rate} EUR, the largest amount the ledger holds`,
      );
    }
  } else {
    cryptoAmount = input.crypto_amount!;
    if (decimalShape(cryptoAmount).places > currency.decimals) {
      throw invalid("/crypto_amount", "too_precise", `must have at most ${currency.decimals} decimal places for ${currency.code}`);
    }
    fiatAmount = deriveFiat(cryptoAmount, rate);
    if (decimalShape(fiatAmount).integerDigits > FIAT_AMOUNT_LIMIT.integerDigits) {
      throw invalid(
        "/crypto_amount",
        "too_large",
        `is worth more than ${groupDigits(FIAT_AMOUNT_LIMIT.max)} EUR at the rate of ${rate} EUR, the largest amount the ledger holds`,
      );
    }
  }

  const [row] = await db
    .insert(invoices)
    .values({
      id: uuidv7({ msecs: createdAt.getTime() }),
      merchantId: caller.merchantId,
      orderId: input.order_id,
      orderName: input.order_name || null,
      status: "archived",
      fiatAmount,
      fiatCurrency: "EUR",
      cryptoAmount,
      currency: currency.code,
      allowedErrorPercent: input.allowed_error_percent ?? ALLOWED_ERROR_PERCENT_DEFAULT,
      callbackUrl: input.callback_url || null,
      createdAt,
      // Never before created_at (a created_at within the clock skew ahead of this server's clock).
      updatedAt: createdAt > now ? createdAt : now,
      rate,
      pricedIn: input.fiat_amount != null ? "fiat" : "crypto",
    })
    .onConflictDoNothing({ target: [invoices.merchantId, invoices.orderId] })
    .returning({ id: invoices.id });
  if (!row) {
    throw invalid(
      "/order_id",
      "duplicate_order_id",
      `is already recorded: another invoice of this merchant has the order id ${JSON.stringify(input.order_id)}`,
      "This order is already recorded",
    );
  }
  return getInvoice(db, caller, row.id);
}
