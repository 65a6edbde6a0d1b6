/** Up, down or unchanged, from one value to the next; `percent` is null when there is nothing to compare. */
export type RateChange = { direction: "up" | "down" | "flat"; percent: number | null };

export function rateChange(current: number, previous: number | null | undefined): RateChange {
  if (previous === null || previous === undefined || previous <= 0) return { direction: "flat", percent: null };
  const percent = ((current - previous) / previous) * 100;
  // Below a hundredth of a percent the rounding of the provider's figures decides the sign: call it flat.
  return { direction: Math.abs(percent) < 0.005 ? "flat" : percent > 0 ? "up" : "down", percent };
}

/** Converts between EUR and a currency at `rate` EUR per unit. */
export function eurToCrypto(eur: number, rate: number): number {
  return eur / rate;
}

export function cryptoToEur(amount: number, rate: number): number {
  return amount * rate;
}
