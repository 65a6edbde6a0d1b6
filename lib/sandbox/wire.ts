import "server-only";
import { jsonNumber, type LosslessNumber, stringifyJson } from "@/lib/contract/money-json";
import type { ApiInvoice } from "./wire-schemas";

/*
 * The sandbox's answers as they go on the wire: every amount is a JSON number with exactly the
 * digits the ledger holds (`"crypto_amount":0.123456789012345678`), never a float's approximation. Amounts are
 * carried as `LosslessNumber`s from the numeric columns' text and written by `stringifyJson`.
 */

type Amount = LosslessNumber;
type ApiPayment = NonNullable<ApiInvoice["payment"]>;
type ApiTransaction = ApiPayment["transactions"][number];

/** An invoice as the sandbox answers it: `apiInvoiceSchema`'s shape (./wire-schemas.ts), its amounts exact. */
export type WireInvoice = Omit<ApiInvoice, "fiat_amount" | "crypto_amount" | "payment"> & {
  fiat_amount: Amount;
  crypto_amount: Amount;
  payment:
    | (Omit<ApiPayment, "amount_due" | "amount_received" | "rate" | "transactions"> & {
        amount_due: Amount;
        amount_received: Amount | null;
        rate: Amount | null;
        transactions: (Omit<ApiTransaction, "amount"> & { amount: Amount })[];
      })
    | null;
};

/** A numeric column's text (`"10.50"`, `"0.500000000000000000"`) as a JSON number with its digits (`10.5`, `0.5`). */
export const amount = (column: string): Amount => jsonNumber(column);
export const amountOrNull = (column: string | null): Amount | null => (column === null ? null : jsonNumber(column));

/**
 * A JSON answer whose amounts keep their digits. Given as UTF-8 bytes: a string body is first scanned whole for
 * half surrogate pairs, which encoding replaces the same way (a list page's largest cost after the query).
 */
export function wireJson(body: unknown, init: { status?: number; headers?: Record<string, string> } = {}): Response {
  return new Response(Buffer.from(stringifyJson(body)), {
    status: init.status ?? 200,
    headers: { "content-type": "application/json", ...init.headers },
  });
}
