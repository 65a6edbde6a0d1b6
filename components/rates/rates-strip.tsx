"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { cn } from "@/lib/browser/cn";
import { currencyListOptions } from "@/lib/browser/query/invoices";
import { formatRateEur, formatRateEurShort } from "@/lib/contract/format";
import { rateChange } from "@/lib/contract/rate-change";
import { RateChange } from "./rate-change";
import { RATES_BAND, RatesBand } from "./rates-band";
import { useRatesView } from "./use-rates-view";

const SHOWN = 8;

/**
 * The shell's compact rates: a few currencies and their change, linking to the panel. Fetched in the browser
 * after the page, so no page waits for rates; when there are none it shows nothing rather than an error.
 */
export function RatesStrip() {
  const { view, ageSeconds, loading } = useRatesView();
  // The provider's own order of currencies (the rates object's order does not survive the cache's jsonb).
  const order = (useQuery(currencyListOptions()).data?.currencies ?? []).map((c) => c.code.toUpperCase());
  if (!view) return loading ? <RatesBand /> : null;
  const rank = (code: string) => (order.includes(code) ? order.indexOf(code) : order.length);
  const codes = Object.keys(view.rates)
    .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))
    .slice(0, SHOWN);
  return (
    <div className={RATES_BAND} data-testid="rates-strip">
      <Link
        href="/rates"
        className="relative mx-auto flex h-8 max-w-[1600px] items-center gap-5 overflow-hidden px-page text-xs hover:bg-accent/40"
      >
        {/* Named by what it shows (so a person saying what they see can reach it), with what it is and where it leads. */}
        <span className="sr-only">Rates in EUR:</span>
        {codes.map((code, i) => (
          <span
            key={code}
            className={cn(
              "shrink-0 items-center gap-1.5 tabular-nums",
              i < 2 ? "inline-flex" : i < 4 ? "hidden sm:inline-flex" : i < 6 ? "hidden lg:inline-flex" : "hidden xl:inline-flex",
            )}
          >
            <span className="font-medium text-muted-foreground">{code}</span>
            <span className="text-foreground" title={`1 ${code} = ${formatRateEur(view.rates[code])}`}>
              {formatRateEurShort(view.rates[code])}
            </span>
            {view.previous_rates?.[code] !== undefined && <RateChange change={rateChange(view.rates[code], view.previous_rates[code])} />}
          </span>
        ))}
        <span className={cn("ml-auto shrink-0", view.stale ? "font-medium text-warning-text" : "hidden text-muted-foreground sm:inline")}>
          {view.stale ? "Stale" : "Updated"}
          <span className={cn(view.stale && "hidden sm:inline")}> {ageSeconds !== null ? `${ageSeconds} s ago` : ""}</span>
        </span>
        <span className="sr-only">. Open the rates panel</span>
      </Link>
    </div>
  );
}
