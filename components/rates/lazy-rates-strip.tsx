"use client";

import { useQuery } from "@tanstack/react-query";
import dynamic from "next/dynamic";
import { ratesOptions } from "@/lib/browser/query/rates";

// The strip shows only once the browser has the rates (no page renders it on the server), so its code loads
// after hydration instead of with every page.
const RatesStrip = dynamic(() => import("./rates-strip").then((m) => m.RatesStrip), { ssr: false });

/** The shell's rates strip: the rates are asked for at hydration, while the strip's code is on its way. */
export function LazyRatesStrip() {
  useQuery(ratesOptions());
  return <RatesStrip />;
}
