"use client";

import { cn } from "@/lib/browser/cn";
import { formatEurComputed, formatPercentChange } from "@/lib/contract/format";
import { type Decimal, percentChange } from "@/lib/contract/money";
import { comparedToInvoiced, cryptoToEur } from "@/lib/contract/rate-change";
import { useRatesView } from "./use-rates-view";

/**
 * An invoice's crypto amount at today's rate beside its invoiced EUR amount: "worth €31.20 today, +4.1 %".
 * Nothing when there is no rate for the currency (or no rates at all): the invoice page never waits for it.
 */
export function WorthToday({
  cryptoAmount,
  currency,
  fiatAmount,
}: {
  cryptoAmount: Decimal | null;
  currency: string | null;
  fiatAmount: Decimal | null;
}) {
  const { view } = useRatesView();
  const rate = currency ? view?.rates[currency.toUpperCase()] : undefined;
  if (!rate || cryptoAmount === null) return null;
  const worth = cryptoToEur(cryptoAmount, rate);
  const percent = fiatAmount ? percentChange(fiatAmount, worth) : null;
  const direction = percent === null || Math.abs(percent) < 0.05 ? "flat" : percent > 0 ? "up" : "down";
  return (
    <p className="text-sm tabular-nums text-muted-foreground" data-testid="worth-today">
      worth <span className="font-medium text-foreground">{formatEurComputed(worth)}</span> today
      {percent !== null && (
        <>
          ,{" "}
          <span
            className={cn("font-medium", direction === "up" ? "text-success-text" : direction === "down" ? "text-danger-text" : undefined)}
          >
            {formatPercentChange(percent)}
          </span>
          <span className="sr-only"> {comparedToInvoiced(direction)}</span>
        </>
      )}
      {view?.stale && <span className="text-warning-text"> (stale rate)</span>}
    </p>
  );
}
