import { compareDecimal, type Decimal, divideDecimal, formatDecimal, isZero, multiplyDecimal, roundDecimal } from "@/lib/contract/money";

/*
 * Which amount an imported row sends, and what the provider will make of the other (README, "Recording
 * archived invoices in the console"). POST /archived takes one amount and derives the other at the market's
 * rate of the invoice's created_at, so an export imported again is the same record only when the import
 * sends the amount the invoice was priced in — the export's `priced_in` column — and lets the other be derived
 * again. The file's value of the other amount is checked against the derivation: before sending at the file's
 * `payment_rate`, after sending against the provider's answer. A difference is a warning, never a refusal:
 * the row is recorded, and the person is told what the record holds.
 */

export type AmountField = "fiat_amount" | "crypto_amount";
export type RowNote = { field: string; message: string };

export type RowPricing = {
  /** The amount sent. */
  sent: AmountField;
  /** Why that one: the row's priced_in, the only amount it has, or both without priced_in (the EUR amount, the ledger's). */
  because: "priced_in" | "only_amount" | "default_fiat";
  /** The amount the provider derives; never sent. */
  derived: AmountField;
  /** The file's value of the derived amount, as written (trailing zeros kept); null when the cell is empty. */
  fileValue: Decimal | null;
  /** The file's payment_rate (EUR per unit), when it has a usable one. */
  rate: Decimal | null;
  /** The derived amount at `rate`, as the provider will work it out; null when it cannot be known here. */
  expected: Decimal | null;
};

/** A row's amount cells as read: the value when readable; `written` when the cell holds anything at all. */
export type AmountCell = { value: Decimal | null; written: boolean };

export type PricingInput = {
  fiat: AmountCell;
  crypto: AmountCell;
  /** The priced_in cell's text, trimmed (empty when absent). */
  pricedIn: string;
  rate: Decimal | null;
  /** The row's currency code, for messages. */
  currency: string;
};

const FIELD_OF = { fiat: "fiat_amount", crypto: "crypto_amount" } as const;
const other = (field: AmountField): AmountField => (field === "fiat_amount" ? "crypto_amount" : "fiat_amount");
const places = (d: Decimal) => d.split(".")[1]?.length ?? 0;

/** The pricing of a row, or the problems that keep it from being sent (a priced_in the row cannot honour). */
export function rowPricing(input: PricingInput): { pricing: RowPricing | null; problems: RowNote[]; warnings: RowNote[] } {
  const cells = { fiat_amount: input.fiat, crypto_amount: input.crypto };
  const choice = input.pricedIn.toLowerCase();
  let sent: AmountField;
  let because: RowPricing["because"];
  if (choice === "fiat" || choice === "crypto") {
    sent = FIELD_OF[choice];
    if (!cells[sent].written) {
      const alternative = cells[other(sent)].written ? `, or set priced_in to ${choice === "fiat" ? "crypto" : "fiat"}` : "";
      return {
        pricing: null,
        warnings: [],
        problems: [{ field: "priced_in", message: `is "${input.pricedIn}", but ${sent} is empty: fill in ${sent}${alternative}` }],
      };
    }
    because = "priced_in";
  } else if (choice !== "") {
    return {
      pricing: null,
      warnings: [],
      problems: [
        {
          field: "priced_in",
          message: `"${input.pricedIn}" is not a priced_in value: write fiat (fiat_amount is sent) or crypto (crypto_amount is sent), or leave it empty`,
        },
      ],
    };
  } else if (cells.fiat_amount.written && cells.crypto_amount.written) {
    sent = "fiat_amount";
    because = "default_fiat";
  } else if (cells.fiat_amount.written || cells.crypto_amount.written) {
    sent = cells.fiat_amount.written ? "fiat_amount" : "crypto_amount";
    because = "only_amount";
  } else {
    // Neither amount: the contract says so on both fields.
    return { pricing: null, problems: [], warnings: [] };
  }

  const derived = other(sent);
  const sentValue = cells[sent].value;
  const fileValue = cells[derived].value;
  const rate = input.rate !== null && !isZero(input.rate) ? input.rate : null;
  const expected = sentValue === null || rate === null ? null : derive(sentValue, derived, rate, fileValue);
  const warnings: RowNote[] = [];
  if (input.rate !== null && rate === null)
    warnings.push({
      field: "payment_rate",
      message: `is 0: ${derived} cannot be checked before sending; the provider derives it at its rate for created_at`,
    });
  if (expected !== null && fileValue !== null && compareDecimal(expected, fileValue) !== 0) {
    warnings.push({ field: derived, message: derivedWarning({ derived, expected, fileValue, rate: rate!, currency: input.currency }) });
  }
  return { pricing: { sent, because, derived, fileValue, rate, expected }, problems: [], warnings };
}

/**
 * The derived amount as the provider works it out from the sent one at `rate` (EUR per unit), rounded half up
 * as it does: EUR to the cent. Crypto is rounded to the places the file's own value has, because the import
 * does not know the provider's places for a currency (another provider may keep fewer than ours), and the
 * export writes the provider's value with its trailing zeros dropped: rounding the exact quotient to the file's
 * places gives back exactly that value when the row is an unedited export (a value rounded to the provider's
 * places that needs only k of them is also the quotient rounded to k). A crypto value edited to fewer digits
 * can hide a difference below them; the check of the provider's answer after sending catches it. Without a
 * file value there is nothing to compare, and the provider's places are unknown: null.
 */
function derive(sent: Decimal, derived: AmountField, rate: Decimal, fileValue: Decimal | null): Decimal | null {
  if (derived === "fiat_amount") return roundDecimal(multiplyDecimal(sent, rate), 2);
  return fileValue === null ? null : divideDecimal(sent, rate, places(fileValue));
}

export function derivedWarning(w: {
  derived: AmountField;
  expected: Decimal;
  fileValue: Decimal;
  rate: Decimal;
  currency: string;
}): string {
  const priced = w.derived === "crypto_amount" ? "crypto" : "fiat";
  return (
    `${w.derived} will be derived as ${w.expected} at 1 ${w.currency} = €${formatDecimal(w.rate, { minDecimals: 2 })}; the file says ${w.fileValue}. ` +
    `The row is recorded with ${w.expected}; if ${w.fileValue} is the amount to keep, set priced_in to ${priced} so that it is sent`
  );
}

/**
 * After sending: the provider's answer (the full invoice) against the file. The derived amount differing from
 * the file's value is a flag on a recorded row; null when they agree or the file had no value to compare.
 */
export function derivedDifference(
  pricing: RowPricing,
  invoice: { fiat_amount: Decimal | null; crypto_amount: Decimal | null },
): { field: AmountField; derived: Decimal; fileValue: Decimal; message: string } | null {
  const derived = invoice[pricing.derived];
  if (pricing.fileValue === null || derived === null || compareDecimal(derived, pricing.fileValue) === 0) return null;
  return {
    field: pricing.derived,
    derived,
    fileValue: pricing.fileValue,
    message: `recorded; ${pricing.derived} derived as ${derived} where the file says ${pricing.fileValue}`,
  };
}
