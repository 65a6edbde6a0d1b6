"use client";

import { useQuery } from "@tanstack/react-query";
import { Clock, RefreshCw } from "lucide-react";
import { useMemo } from "react";
import { Button } from "@/components/ui/button";
import { ProblemState } from "@/components/ui/problem-state";
import { currencyListOptions } from "@/lib/browser/query/invoices";
import { formatAge } from "@/lib/contract/format";
import { RatesConverter } from "./rates-converter";
import { RatesTable } from "./rates-table";
import { useRatesView } from "./use-rates-view";

const REASONS = {
  rate_limited: "The invoicing API is limiting how often the console may ask (HTTP 429).",
  upstream_error: "The invoicing API did not answer with rates.",
} as const;

/** The rates panel: every currency's EUR rate and its change, how old it is, refresh, and a converter. */
export function RatesPanel() {
  const { view, problem, ageSeconds, retryInSeconds, loading, fetching, refresh } = useRatesView();
  const currencies = useQuery(currencyListOptions());
  const names = useMemo(() => new Map((currencies.data?.currencies ?? []).map((c) => [c.code.toUpperCase(), c.name])), [currencies.data]);
  const decimals = useMemo(
    () =>
      new Map(
        (currencies.data?.currencies ?? []).flatMap((c) => (c.decimals === null ? [] : [[c.code.toUpperCase(), c.decimals] as const])),
      ),
    [currencies.data],
  );

  const noRates = !view && problem;
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">Rates</h1>
          <p className="mt-1 text-sm text-muted-foreground">
            EUR per one unit of each currency, from the invoicing API.{" "}
            <span aria-live="polite" data-testid="rates-updated">
              {ageSeconds !== null && <>Updated {formatAge(ageSeconds)}.</>}
            </span>
          </p>
        </div>
        <Button onClick={refresh} loading={fetching} aria-label="Refresh rates">
          <RefreshCw aria-hidden className="size-4" />
          Refresh
        </Button>
      </div>

      {view?.stale && (
        <div
          role="status"
          data-testid="rates-stale"
          className="flex items-start gap-3 rounded-lg border border-warning-border bg-warning-muted p-4 text-sm text-warning-text"
        >
          <Clock aria-hidden className="mt-0.5 size-4 shrink-0" />
          <div>
            <p className="font-medium">
              These rates are {ageSeconds !== null ? formatAge(ageSeconds).replace(" ago", "") : ""} old.{" "}
              {retryInSeconds !== null && (
                <>
                  Trying again in{" "}
                  <span data-testid="rates-countdown" className="tabular-nums">
                    {retryInSeconds} s
                  </span>
                  .
                </>
              )}
            </p>
            <p className="mt-0.5">
              {view.stale_reason ? REASONS[view.stale_reason] : view.stale_detail} The last values stay below until new ones arrive.
            </p>
          </div>
        </div>
      )}

      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <RatesTable
          view={view}
          names={names}
          loading={loading}
          refreshing={fetching && !loading}
          message={
            noRates ? (
              <ProblemState
                problem={problem}
                detail={
                  <>
                    {problem.detail ?? "The console has no rates to show yet."}
                    {retryInSeconds !== null && (
                      <>
                        {" "}
                        Trying again in{" "}
                        <span className="tabular-nums" data-testid="rates-countdown">
                          {retryInSeconds} s
                        </span>
                        .
                      </>
                    )}
                  </>
                }
              />
            ) : undefined
          }
        />
        {view && <RatesConverter rates={view.rates} names={names} decimals={decimals} />}
      </div>
    </div>
  );
}
