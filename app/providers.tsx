"use client";

import { QueryClientProvider } from "@tanstack/react-query";
import dynamic from "next/dynamic";
import type { ReactNode } from "react";
import { ThemeProvider } from "@/components/theme/theme-provider";
import { TimeZoneProvider } from "@/components/time-zone/time-zone-provider";
import { getQueryClient } from "@/lib/browser/query/get-query-client";
import type { DisplayTimeZone } from "@/lib/contract/time-zone";

// No page shows a toast on arrival: the toaster (sonner) loads after hydration instead of with every page.
// A toast raised before it is there still shows: sonner replays it when the toaster subscribes.
const Toaster = dynamic(() => import("@/components/ui/toaster").then((m) => m.Toaster), { ssr: false });

export function Providers({ timeZone, children }: { timeZone: DisplayTimeZone; children: ReactNode }) {
  return (
    <ThemeProvider>
      <TimeZoneProvider zone={timeZone}>
        <QueryClientProvider client={getQueryClient()}>
          {children}
          <Toaster />
        </QueryClientProvider>
      </TimeZoneProvider>
    </ThemeProvider>
  );
}
