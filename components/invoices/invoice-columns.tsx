"use client";

import { createColumnHelper, rowSortingFeature, tableFeatures } from "@tanstack/react-table";
import Link from "next/link";
import { CopyButton } from "@/components/ui/copy-button";
import { DateTime } from "@/components/ui/date-time";
import type { Invoice } from "@/lib/contract";
import { cryptoDecimalsShown, formatCryptoAligned, formatFiat, MISSING, shortInvoiceId } from "@/lib/contract/format";
import { invoiceHref } from "./invoice-href";
import { StatusBadge } from "./status-badge";
import "@/components/data-table/column-meta";

export const invoiceTableFeatures = tableFeatures({ rowSortingFeature });

const column = createColumnHelper<typeof invoiceTableFeatures, Invoice>();

const numeric = "text-right tabular-nums";

/** Column ids equal the API's sort_by values where the column sorts. */
export const invoiceColumns = column.columns([
  column.accessor("invoice_id", {
    header: "Invoice",
    enableSorting: false,
    cell: ({ getValue }) => (
      <span className="inline-flex items-center gap-1 font-mono text-xs">
        <Link
          href={invoiceHref(getValue())}
          className="text-link hover:underline"
          title={getValue()}
          aria-label={`Open invoice ${getValue()}`}
        >
          {shortInvoiceId(getValue())}
        </Link>
        {/* Out of the Tab order: one stop a row (the link that opens it); the invoice page copies by keyboard. */}
        <CopyButton value={getValue()} label={`Copy invoice id ${getValue()}`} tabIndex={-1} />
      </span>
    ),
  }),
  column.accessor("order_id", {
    header: "Order",
    enableSorting: false,
    cell: ({ getValue }) => <span className="text-xs tabular-nums">{getValue() ?? MISSING}</span>,
  }),
  column.accessor("order_name", {
    header: "Order name",
    enableSorting: false,
    cell: ({ getValue }) => (
      <span className="block max-w-44 truncate lg:max-w-72 xl:max-w-96 2xl:max-w-[36rem]" title={getValue() ?? undefined}>
        {getValue() || "—"}
      </span>
    ),
  }),
  column.accessor("status", { header: "Status", enableSorting: false, cell: ({ getValue }) => <StatusBadge status={getValue()} /> }),
  column.accessor("fiat_amount", {
    id: "fiat_amount",
    header: "Amount (EUR)",
    meta: { className: numeric },
    cell: ({ row }) => <span className="font-medium">{formatFiat(row.original.fiat_amount, row.original.fiat_currency)}</span>,
  }),
  column.accessor("crypto_amount", {
    id: "crypto_amount",
    header: "Crypto amount",
    meta: { className: numeric },
    // Every digit the provider sent, padded to the most decimals any row shows, so the points line up.
    cell: ({ row, table }) => (
      <span>
        {formatCryptoAligned(row.original.crypto_amount, alignCryptoTo(table.getRowModel().rows))}
        <span className="ml-1.5 inline-block w-10 text-left text-xs text-muted-foreground">{row.original.currency ?? ""}</span>
      </span>
    ),
  }),
  column.accessor("created_at", {
    id: "created_at",
    header: "Created",
    meta: { className: "whitespace-nowrap tabular-nums" },
    cell: ({ getValue }) => <DateTime iso={getValue()} />,
  }),
  column.accessor("updated_at", {
    id: "updated_at",
    header: "Updated",
    meta: { className: "whitespace-nowrap tabular-nums" },
    cell: ({ getValue }) => <DateTime iso={getValue()} />,
  }),
]);

const alignments = new WeakMap<readonly object[], number>();
/** The most decimals a crypto amount on the page shows (at least two), once per row model. */
function alignCryptoTo(rows: readonly { original: Invoice }[]): number {
  let most = alignments.get(rows);
  if (most === undefined) {
    most = rows.reduce((m, row) => Math.max(m, cryptoDecimalsShown(row.original.crypto_amount)), 2);
    alignments.set(rows, most);
  }
  return most;
}
