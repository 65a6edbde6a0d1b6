"use client";

import { FlexRender, type ReactTable, type Row, type RowData, type TableFeatures } from "@tanstack/react-table";
import type { MouseEvent, ReactNode } from "react";
import { LoadingLine } from "@/components/ui/progress";
import { Table, TableBody, TableCard, TableCell, TableHeader } from "@/components/ui/table";
import { cn } from "@/lib/browser/cn";
import { ColumnHeader } from "./column-header";
import { columnMeta } from "./column-meta";
import { SkeletonRows } from "./state-rows";

type DataTableProps<TFeatures extends TableFeatures, TData extends RowData> = {
  table: ReactTable<TFeatures, TData, unknown>;
  /** Names the table for assistive technology ("Invoices"); shown to screen readers only. */
  caption: string;
  /** The first load: skeleton rows in place of data. */
  loading?: boolean;
  /** How many skeleton rows to show while loading (the page size, capped). */
  skeletonRows?: number;
  /** A refetch with the old rows still on screen: a thin progress bar, rows stay readable. */
  refreshing?: boolean;
  /** In place of rows: the empty or the error state (EmptyState / ProblemState). */
  message?: ReactNode;
  /** A notice above the pagination while old rows stay, e.g. "could not load this view; try again". */
  notice?: ReactNode;
  /** Pagination and other controls under the table. */
  footer?: ReactNode;
  /** Opens a row. Ignored when the person is selecting text or clicked a link or button inside the row. */
  onRowClick?: (row: Row<TFeatures, TData>, event: MouseEvent<HTMLTableRowElement>) => void;
  "aria-describedby"?: string;
  className?: string;
};

/**
 * The one table: a card whose table scrolls sideways inside it on narrow screens (the page itself never
 * does), header cells that sort, skeleton rows, empty and error states, and a footer for pagination.
 */
export function DataTable<TFeatures extends TableFeatures, TData extends RowData>({
  table,
  caption,
  loading = false,
  skeletonRows = 10,
  refreshing = false,
  message,
  notice,
  footer,
  onRowClick,
  className,
  ...aria
}: DataTableProps<TFeatures, TData>) {
  const columns = table.getAllLeafColumns().length;
  const rows = table.getRowModel().rows;
  return (
    <TableCard className={className}>
      <div className="relative overflow-x-auto">
        {refreshing && <LoadingLine label={`Loading ${caption.toLowerCase()}`} />}
        <Table caption={caption} aria-busy={loading || refreshing} aria-describedby={aria["aria-describedby"]}>
          <TableHeader>
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => (
                  <ColumnHeader key={header.id} header={header} />
                ))}
              </tr>
            ))}
          </TableHeader>
          {/* Refreshing rows keep full contrast: the progress line says "loading", not faded text. */}
          <TableBody>
            {loading ? (
              <SkeletonRows rows={skeletonRows} columns={columns} />
            ) : (
              rows.map((row) => (
                <tr
                  key={row.id}
                  onClick={
                    onRowClick &&
                    ((event) => {
                      if (window.getSelection()?.toString()) return;
                      if ((event.target as HTMLElement).closest("a, button, input, select, textarea, label")) return;
                      onRowClick(row, event);
                    })
                  }
                  className={cn(onRowClick && "cursor-pointer hover:bg-accent/60")}
                >
                  {row.getAllCells().map((cell) => (
                    <TableCell key={cell.id} className={cn(columnMeta(cell.column)?.className, columnMeta(cell.column)?.cellClassName)}>
                      <FlexRender cell={cell} />
                    </TableCell>
                  ))}
                </tr>
              ))
            )}
          </TableBody>
        </Table>
      </div>
      {message}
      {notice}
      {footer}
    </TableCard>
  );
}
