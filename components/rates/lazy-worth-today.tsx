"use client";

import dynamic from "next/dynamic";

// Drawn only once the browser has the rates (the server draws nothing there), so its code, decimal arithmetic
// and the rates' query load after the invoice page instead of with it.
export const LazyWorthToday = dynamic(() => import("./worth-today").then((m) => m.WorthToday), { ssr: false });
