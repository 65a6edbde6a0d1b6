"use client";

import { FlexRender, type Header, type RowData, type TableFeatures } from "@tanstack/react-table";
import { ArrowDown, ArrowUp, ChevronsUpDown } from "lucide-react";
import { cn } from "@/lib/browser/cn";
import { columnMeta } from "./column-meta";
import { ariaSort, sortState } from "./sort-state";

/**
 * A header cell. A sortable column gets a button that says what it will do, and the cell carries aria-sort
 * so a screen reader announces the current order with the column's name.
 */
export function ColumnHeader<TFeatures extends TableFeatures, TData extends RowData>({
  header,
}: {
  header: Header<TFeatures, TData, unknown>;
}) {
  const meta = columnMeta(header.column);
  const { canSort, sorted, toggle } = sortState(header.column);
  const name = meta?.label ?? (typeof header.column.columnDef.header === "string" ? header.column.columnDef.header : header.column.id);
  return (
    <th
      scope="col"
      aria-sort={ariaSort(sorted)}
      className={cn("px-2.5 py-2.5 font-medium whitespace-nowrap first:pl-4 last:pr-4", meta?.className)}
    >
      {header.isPlaceholder ? null : canSort ? (
        <button
          type="button"
          onClick={toggle}
          title={`Sort by ${name.toLowerCase()}`}
          className={cn(
            "-mx-1 inline-flex items-center gap-1 rounded-sm px-1 uppercase hover:text-foreground",
            sorted && "text-foreground",
          )}
        >
          <FlexRender header={header} />
          {sorted === "asc" ? (
            <ArrowUp aria-hidden className="size-3.5" />
          ) : sorted === "desc" ? (
            <ArrowDown aria-hidden className="size-3.5" />
          ) : (
            <ChevronsUpDown aria-hidden className="size-3.5 opacity-70" />
          )}
        </button>
      ) : (
        <FlexRender header={header} />
      )}
    </th>
  );
}
