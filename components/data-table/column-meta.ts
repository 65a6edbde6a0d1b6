import type { CellData, ColumnMeta, RowData, TableFeatures } from "@tanstack/react-table";

/**
 * What a column definition may say about how it is shown, typed for every table in the app. TanStack's
 * `meta` is an empty interface made to be extended this way; the generic table parts read these fields.
 */
declare module "@tanstack/react-table" {
  // The type parameters must match TanStack's declaration for the interfaces to merge.
  interface ColumnMeta<in out TFeatures extends TableFeatures, in out TData extends RowData, TValue extends CellData = CellData> {
    /** Classes for the column's header and body cells: alignment, width, `text-right tabular-nums` for numbers. */
    className?: string;
    /** Classes for the body cells only. */
    cellClassName?: string;
    /** The column's name in words when its header is not plain text; used for the sort button's label. */
    label?: string;
  }
}

export type DataTableColumnMeta = ColumnMeta<TableFeatures, RowData>;

/**
 * A column's meta as the generic parts read it. In generic code TanStack types `meta` as "the declared
 * interface, or whatever a feature set's own `columnMeta` slot says"; our tables use the declared one.
 */
export function columnMeta(column: { columnDef: { meta?: unknown } }): DataTableColumnMeta | undefined {
  return column.columnDef.meta as DataTableColumnMeta | undefined;
}
