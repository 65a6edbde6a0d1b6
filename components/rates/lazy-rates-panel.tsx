"use client";

import dynamic from "next/dynamic";

// The panel draws only what the browser fetches (the server never has rates), so its code and queries load
// after the page; until then, and without script, the page says the rates are on their way.
export const LazyRatesPanel = dynamic(() => import("./rates-panel").then((m) => m.RatesPanel), {
  ssr: false,
  loading: () => (
    <div className="flex flex-col gap-1">
      <h1 className="text-2xl font-semibold tracking-tight">Rates</h1>
      <p className="text-sm text-muted-foreground">EUR per one unit of each currency, from the invoicing API.</p>
      <p className="text-sm text-muted-foreground" role="status">
        Loading the rates…
      </p>
    </div>
  ),
});
