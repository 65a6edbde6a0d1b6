import type { ArchiveCsv } from "@/lib/browser/archive/csv";
import { formatEur } from "@/lib/contract/format";
import { formatDateTime } from "@/lib/contract/format-date";
import { type Decimal, divideDecimal, isNegative, multiplyDecimal, roundDecimal } from "@/lib/contract/money";
import { derivedByProvider, enterAmount } from "./preview-words";
import type { PreviewRates } from "./use-rates";

/*
 * The archive form's sentence under the amount (README, "Recording archived invoices in the console"): what
 * the other amount will be, at which rate and of which moment. A rate is shown only with the moment it is of
 * — the creation date's minute, or "current" — and nothing while the right one is not known.
 */

export type PreviewInput = {
  rates: PreviewRates;
  currency: string;
  currencyName?: string;
  amountIn: "fiat" | "crypto";
  /** The typed amount, when it reads as one (lib/contract/typed-amount.ts). */
  amount: Decimal | null;
  timeZone: string;
  /** The form refuses the typed amount (its message is under the field): no figure is derived from it. */
  amountRefused?: boolean;
};

/** The other amount at `rate`: crypto to 8 places, EUR to cents, both marked "≈" (the provider derives the real one). */
function derived(amount: Decimal, rate: Decimal, amountIn: "fiat" | "crypto", currency: string): string | null {
  if (isNegative(amount)) return null;
  if (amountIn === "fiat") {
    const crypto = divideDecimal(amount, rate, 8);
    return crypto === null ? null : `≈ ${crypto} ${currency}`;
  }
  return `≈ ${formatEur(roundDecimal(multiplyDecimal(amount, rate), 2))}`;
}

export function previewSentence({ rates, currency, currencyName, amountIn, amount, timeZone, amountRefused }: PreviewInput): string {
  const enter = enterAmount(currencyName);
  if (amountRefused && amount !== null) return "No other amount is derived from a refused amount: correct the amount above first.";
  if (!currency) return derivedByProvider(currencyName);
  // "1 Mar 2025," and "14:03 CET" each kept on one line (no-break spaces): the line may wrap only between them.
  const on = (iso: string) =>
    formatDateTime(iso, timeZone)
      .split(", ")
      .map((part) => part.replaceAll(" ", "\u00a0"))
      .join(", ");
  switch (rates.kind) {
    case "none":
      return `${enter}; the provider derives the other amount when it records the invoice, and records the rate.`;
    case "invalid":
      return "The rate is looked up once the creation date is valid; the provider derives the other amount at that date's rate.";
    case "waiting":
      return `Looking up the rate of ${currency} on ${on(rates.minute!)}…`;
    case "failed":
      return `The rate of ${currency} on ${on(rates.minute)} could not be loaded (${rates.detail.replace(/\.$/, "")}). The provider derives the other amount when it records the invoice.`;
  }
  const rate = rates.rates[currency];
  const when = rates.kind === "historical" ? ` on ${on(rates.at)}` : "";
  if (!rate) return `The provider gave no rate for ${currency}${when}; it derives the other amount when it records the invoice.`;
  const figure = amount === null ? null : derived(amount, rate, amountIn, currency);
  const at = `1 ${currency} = ${formatEur(rate)}`;
  switch (rates.kind) {
    case "current":
      return figure ? `${figure} at ${at} (current rate)` : `${enter}; the other is derived at the current rate, ${at}.`;
    case "historical":
      return figure ? `${figure}, derived at ${at}${when}` : `${enter}; the other is derived at ${at}${when}.`;
    case "provider-current":
      return `${figure ? `${figure} at ${at}, the current rate` : `The current rate is ${at}`}: the provider gives no rate for a past date, and prices this invoice at its own rate when it records it.`;
  }
}

/**
 * The file check against the provider's currencies list (GET /api/currencies, the list the single form loads):
 * a row whose currency the provider does not accept is a problem before anything is sent, not a refusal
 * after. `known` null: the list is not loaded (yet, or it failed), and the rows are left as the file check made
 * them; the provider still refuses an unknown code when it is sent.
 */
export function checkCsvCurrencies(csv: ArchiveCsv, known: readonly string[] | null): ArchiveCsv {
  if (!known || known.length === 0) return csv;
  const accepted = new Set(known.map((c) => c.toUpperCase()));
  const list = [...accepted].join(", ");
  return {
    ...csv,
    rows: csv.rows.map((row) => {
      const code = row.body?.currency;
      if (!row.body || !code || accepted.has(code.toUpperCase())) return row;
      return {
        ...row,
        body: null,
        problems: [...row.problems, { field: "currency", message: `unknown currency ${code}; the provider accepts ${list}` }],
      };
    }),
  };
}
