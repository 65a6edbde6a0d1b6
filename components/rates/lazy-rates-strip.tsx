"use client";

import dynamic from "next/dynamic";
import { RatesBand } from "./rates-band";

// The strip shows only once the browser has the rates (no page renders it on the server), so its code, and the
// query that asks for the rates, load after hydration instead of with every page.
// Its place is kept meanwhile, so the page does not move when it comes.
export const LazyRatesStrip = dynamic(() => import("./rates-strip").then((m) => m.RatesStrip), { ssr: false, loading: RatesBand });
