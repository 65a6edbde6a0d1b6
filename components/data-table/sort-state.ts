import type { Column, RowData, TableFeatures } from "@tanstack/react-table";

import type { Sorted } from "@/components/ui/table";

export type SortState = { canSort: boolean; sorted: Sorted; toggle: ((event: unknown) => void) | undefined };

/**
 * A column's sorting, whether or not its table has the sorting feature: the generic parts serve tables of
 * any feature set, and TanStack only adds these methods to columns of tables that sort.
 */
export function sortState<TFeatures extends TableFeatures, TData extends RowData>(column: Column<TFeatures, TData, unknown>): SortState {
  const sortable = column as unknown as Partial<{
    getCanSort: () => boolean;
    getIsSorted: () => false | "asc" | "desc";
    getToggleSortingHandler: () => ((event: unknown) => void) | undefined;
  }>;
  const canSort = sortable.getCanSort?.() ?? false;
  return {
    canSort,
    sorted: canSort ? (sortable.getIsSorted?.() ?? false) : false,
    toggle: canSort ? sortable.getToggleSortingHandler?.() : undefined,
  };
}
