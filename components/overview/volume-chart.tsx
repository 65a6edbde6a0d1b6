"use client";

import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { VolumePoint } from "@/lib/console/overview/overview";
import { formatCount, formatEur } from "@/lib/contract/format";
import { formatIsoDay } from "@/lib/contract/format-date";
import { plotNumber } from "@/lib/contract/money";

const compactEur = new Intl.NumberFormat("en-GB", { style: "currency", currency: "EUR", notation: "compact", maximumFractionDigits: 1 });

/**
 * Bars per day or week, drawn with the theme's own colours (CSS variables), so they follow light and dark.
 * Its words live beside it (the figure's label and the table), so the SVG itself is hidden from screen readers.
 */
export function VolumeChart({ points, kind }: { points: VolumePoint[]; kind: "sums" | "counts" }) {
  // A bar's height is the one place a sum becomes a float (plotNumber); the tooltip shows the exact sum.
  const data = points.map((p) => ({
    // A bucket's first day (a day of the period's zone), in the console's one date format.
    label: formatIsoDay(p.label.slice(0, 10)),
    full: formatIsoDay(p.label),
    value: kind === "sums" ? plotNumber(p.sumEur ?? "0") : p.count,
    sum: p.sumEur ?? "0",
    count: p.count,
  }));
  return (
    <div className="h-64 w-full" aria-hidden data-testid="volume-chart">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }} accessibilityLayer={false}>
          <CartesianGrid vertical={false} stroke="var(--border)" />
          <XAxis
            dataKey="label"
            tickLine={false}
            axisLine={{ stroke: "var(--border)" }}
            tick={{ fill: "var(--muted-foreground)", fontSize: 12 }}
            minTickGap={12}
          />
          <YAxis
            width={56}
            tickLine={false}
            axisLine={false}
            allowDecimals={kind === "sums"}
            tick={{ fill: "var(--muted-foreground)", fontSize: 12 }}
            tickFormatter={(v: number) => (kind === "sums" ? compactEur.format(v) : formatCount(v))}
          />
          <Tooltip
            cursor={{ fill: "var(--accent)" }}
            contentStyle={{
              background: "var(--popover)",
              border: "1px solid var(--border)",
              borderRadius: 6,
              color: "var(--popover-foreground)",
              fontSize: 13,
            }}
            labelStyle={{ color: "var(--popover-foreground)", fontWeight: 600 }}
            labelFormatter={(_, payload) => String(payload?.[0]?.payload?.full ?? "")}
            formatter={(_v, _name, item) => [
              kind === "sums"
                ? `${formatEur(item.payload.sum)} (${formatCount(item.payload.count)} invoices)`
                : `${formatCount(item.payload.count)} invoices`,
              "Completed",
            ]}
          />
          <Bar dataKey="value" fill="var(--primary)" radius={[3, 3, 0, 0]} maxBarSize={40} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
