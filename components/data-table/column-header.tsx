"use client";

import { FlexRender, type Header, type RowData, type TableFeatures } from "@tanstack/react-table";
import { SortArrow, sortControlClass, TableHead } from "@/components/ui/table";
import { columnMeta } from "./column-meta";
import { sortState } from "./sort-state";

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
    <TableHead sorted={sorted} className={meta?.className}>
      {header.isPlaceholder ? null : canSort ? (
        <button type="button" onClick={toggle} title={`Sort by ${name.toLowerCase()}`} className={sortControlClass(sorted)}>
          <FlexRender header={header} />
          <SortArrow sorted={sorted} />
        </button>
      ) : (
        <FlexRender header={header} />
      )}
    </TableHead>
  );
}
