"use client";

/** EUR per one unit of each currency, by code. */
export type Rates = Record<string, number>;

/**
 * The seam where the archive form's live preview gets its rates. The console has no rates route yet (GET
 * /api/rates comes with the rates issue); until then there are no rates, and the form says the provider
 * derives the other amount. When the route exists, this returns its rates (a TanStack query) and the preview
 * appears with no change to the form.
 */
export function useRates(): Rates | null {
  return null;
}
