import "server-only";
import { v7 as uuidv7 } from "uuid";
import type { Db } from "@/lib/db";
import { invoices } from "@/lib/db/schema";
import { ALLOWED_ERROR_PERCENT_DEFAULT, AMOUNT_MAX, type ApiInvoice, type ArchivedInvoiceInput } from "@/lib/invoicing";
import { Problem } from "@/lib/problem";
import { findCurrency, SANDBOX_CURRENCIES } from "./currencies";
import { getInvoice } from "./invoices";
import type { Caller } from "./keys";
import { marketRate } from "./market";


const invalid = (pointer: string, code: string, detail: string, title = "The body is not valid") =>
  Problem.of("validation_failed", { title, detail: `${pointer.slice(1)} ${detail}`, errors: [{ pointer, code, detail }] });

/** Decimal places a crypto amount keeps: the currency's own, at most 8 (the ledger's practice, see seed.ts). */
const cryptoPlaces = (decimals: number) => Math.min(decimals, 8);
const round = (value: number, places: number) => Number(value.toFixed(places));

/**
 * POST /archived (spec §4.5): a historical invoice in `archived` status. Exactly one amount is given; the
 * other is derived at the market's current rate, which is recorded on the invoice. The order id is unique
 * per merchant by a unique index: of two requests racing with one order id, the database lets one insert and
 * the other is told the order is already recorded. Archived invoices have no payment address and send no
 * webhook.
 */
export async function createArchivedInvoice(db: Db, caller: Caller, input: ArchivedInvoiceInput, now = new Date()): Promise<ApiInvoice> {
  const currency = findCurrency(input.currency);
  if (!currency) {
    throw invalid("/currency", "unsupported_currency", `must be one of the supported currencies (${SANDBOX_CURRENCIES.map((c) => c.code).join(", ")}); see GET /currencies`);
  }
  const rate = marketRate(currency.code, now)!;
  const places = cryptoPlaces(currency.decimals);

  let fiatAmount: number;
  let cryptoAmount: number;
  if (input.fiat_amount != null) {
    fiatAmount = input.fiat_amount;
    cryptoAmount = round(fiatAmount / rate, places);
  } else {
    const crypto = input.crypto_amount!;
    if (round(crypto, places) !== crypto) throw invalid("/crypto_amount", "too_precise", `must have at most ${places} decimal places for ${currency.code}`);
    cryptoAmount = crypto;
    fiatAmount = round(crypto * rate, 2);
    if (fiatAmount > AMOUNT_MAX) throw invalid("/crypto_amount", "too_large", `is worth more than ${AMOUNT_MAX.toLocaleString("en")} EUR at the current rate`);
  }

  const createdAt = input.created_at ? new Date(input.created_at) : now;
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
    })
    .onConflictDoNothing({ target: [invoices.merchantId, invoices.orderId] })
    .returning({ id: invoices.id });
  if (!row) {
    throw invalid("/order_id", "duplicate_order_id", `is already recorded: another invoice of this merchant has the order id ${JSON.stringify(input.order_id)}`, "This order is already recorded");
  }
  return getInvoice(db, caller, row.id);
}
