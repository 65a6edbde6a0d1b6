"use client";

import dynamic from "next/dynamic";
import { Skeleton } from "@/components/ui/skeleton";

/** The chart library loads only on the overview, after the page: no other page carries it. */
export const VolumeChartLazy = dynamic(() => import("./volume-chart").then((m) => m.VolumeChart), {
  ssr: false,
  loading: () => <Skeleton className="h-64" />,
});
