"use client";

import { createColumnHelper, tableFeatures, useTable } from "@tanstack/react-table";
import { useMemo } from "react";
import { DataTable } from "@/components/data-table/data-table";
import type { RatesView } from "@/lib/contract";
import { formatRateEur, formatRateEurShort } from "@/lib/contract/format";
import { type RateChange as Change, rateChange } from "@/lib/contract/rate-change";
import { RateChange } from "./rate-change";
import "@/components/data-table/column-meta";

const features = tableFeatures({});
type Row = { code: string; name: string; rate: string; change: Change };
const column = createColumnHelper<typeof features, Row>();
const numeric = "text-right tabular-nums";

const columns = column.columns([
  column.accessor("name", {
    header: "Currency",
    cell: ({ row }) => (
      <span className="flex flex-col">
        <span className="font-medium">{row.original.name}</span>
        <span className="text-xs text-muted-foreground">{row.original.code}</span>
      </span>
    ),
  }),
  column.accessor("rate", {
    header: "EUR per unit",
    // The last column shown on phones: the table's edge padding.
    meta: { className: `${numeric} max-sm:pr-4` },
    cell: ({ row }) => (
      <span className="flex flex-col items-end">
        <span className="font-medium" data-testid={`rate-${row.original.code}`} title={`Exactly ${formatRateEur(row.original.rate)}`}>
          {formatRateEurShort(row.original.rate)}
        </span>
        {/* On phones the change sits under the rate, so the table fits without scrolling sideways. */}
        <RateChange change={row.original.change} className="text-xs sm:hidden" />
      </span>
    ),
  }),
  column.accessor("change", {
    header: "Change",
    // Its own column from 640 px; below, shown under the rate.
    meta: { className: `${numeric} hidden sm:table-cell`, label: "Change since the previous value" },
    cell: ({ getValue }) => <RateChange change={getValue()} />,
  }),
]);

const EMPTY: Row[] = [];

/** Every currency the provider quotes, in the provider's order of currencies when it has one. */
export function RatesTable({
  view,
  names,
  loading,
  refreshing,
  message,
}: {
  view: RatesView | undefined;
  names: Map<string, string>;
  loading: boolean;
  refreshing: boolean;
  message?: React.ReactNode;
}) {
  const data = useMemo(() => {
    if (!view) return EMPTY;
    const order = [...names.keys()];
    const codes = Object.keys(view.rates).sort((a, b) => rank(order, a) - rank(order, b) || a.localeCompare(b));
    return codes.map((code) => ({
      code,
      name: names.get(code) ?? code,
      rate: view.rates[code],
      change: rateChange(view.rates[code], view.previous_rates?.[code]),
    }));
  }, [view, names]);
  const table = useTable({ features, columns, data, getRowId: (row) => row.code });
  return <DataTable table={table} caption="Rates in EUR" loading={loading} skeletonRows={7} refreshing={refreshing} message={message} />;
}

function rank(order: string[], code: string): number {
  const i = order.indexOf(code);
  return i < 0 ? Number.MAX_SAFE_INTEGER : i;
}
