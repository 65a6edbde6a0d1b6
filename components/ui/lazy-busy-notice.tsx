"use client";

import dynamic from "next/dynamic";

// Drawn only when the provider was busy: its code loads with that answer, not with every page that may give it.
export const LazyRetryOnceWhenBusy = dynamic(() => import("./busy-notice").then((m) => m.RetryOnceWhenBusy));
