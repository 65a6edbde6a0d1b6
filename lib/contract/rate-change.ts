import { type Decimal, divideDecimal, multiplyDecimal, percentChange } from "@/lib/contract/money";

/** Up, down or unchanged, from one value to the next; `percent` is null when there is nothing to compare. */
export type RateChange = { direction: "up" | "down" | "flat"; percent: number | null };

/** The change between two rates (decimals), computed exactly; the percent is a ratio for display, not money. */
export function rateChange(current: Decimal, previous: Decimal | null | undefined): RateChange {
  if (previous === null || previous === undefined) return { direction: "flat", percent: null };
  const percent = percentChange(previous, current);
  if (percent === null) return { direction: "flat", percent: null };
  // A change is shown to a tenth of a percent: one that shows as 0.0 % is flat, never an arrow and a colour.
  return { direction: Math.abs(percent) < 0.05 ? "flat" : percent > 0 ? "up" : "down", percent };
}

/** EUR → a currency at `rate` EUR per unit, to `decimals` places (rounded half up); null at a zero rate. */
export function eurToCrypto(eur: Decimal, rate: Decimal, decimals: number): Decimal | null {
  return divideDecimal(eur, rate, decimals);
}

/** A currency → EUR at `rate` EUR per unit, exactly (round it where it is shown). */
export function cryptoToEur(amount: Decimal, rate: Decimal): Decimal {
  return multiplyDecimal(amount, rate);
}

/** How an invoice's crypto is worth today against what was invoiced, in words (beside the percentage, for screen readers). */
export function comparedToInvoiced(direction: RateChange["direction"]): string {
  return direction === "up" ? "more than invoiced" : direction === "down" ? "less than invoiced" : "the same as invoiced";
}
