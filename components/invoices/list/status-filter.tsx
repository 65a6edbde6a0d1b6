import { ChevronDown } from "lucide-react";
import { ALL_INVOICE_STATUSES, type AnyInvoiceStatus, STATUS_LABELS } from "@/lib/contract/status";

/** What the filter says: every status, one, two by name, or how many. */
export function statusSummary(selected: readonly AnyInvoiceStatus[]): string {
  if (selected.length === 0) return "All statuses";
  if (selected.length <= 2) return selected.map((s) => STATUS_LABELS[s]).join(", ");
  return `${selected.length} statuses`;
}

/**
 * The status filter: any number of statuses (pending and partly paid together). A disclosure of real
 * checkboxes named `status` inside the toolbar's GET form, so it works before and without script;
 * a view of several is answered from the console's mirror, one status still from the provider.
 */
export function StatusFilter({ value }: { value: readonly AnyInvoiceStatus[] }) {
  const selected = new Set(value);
  return (
    <div className="flex min-w-36 flex-1 flex-col gap-1 sm:w-44 sm:flex-none">
      <span id="status-filter-label" className="text-xs font-medium text-muted-foreground">
        Status
      </span>
      <details id="status-filter" className="group relative">
        <summary
          aria-labelledby="status-filter-label status-filter-value"
          className="flex h-control w-full min-w-0 cursor-pointer list-none items-center justify-between gap-1.5 rounded-md border border-input bg-card px-3.5 text-sm shadow-xs hover:bg-accent focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring [&::-webkit-details-marker]:hidden"
        >
          <span id="status-filter-value" className="truncate">
            {statusSummary(value)}
          </span>
          <ChevronDown aria-hidden className="size-4 opacity-60 transition-transform group-open:rotate-180" />
        </summary>
        <fieldset className="absolute inset-x-0 top-full z-40 mt-1 rounded-md sm:right-auto sm:w-60 border border-border bg-popover p-2 text-popover-foreground shadow-md">
          <legend className="float-left px-2 pb-1 text-xs text-muted-foreground">Show invoices that are</legend>
          <div className="clear-left">
            {ALL_INVOICE_STATUSES.map((status) => (
              <label key={status} className="flex cursor-pointer items-center gap-2 rounded-md px-2 py-1.5 hover:bg-muted">
                <input
                  type="checkbox"
                  name="status"
                  value={status}
                  className="size-4 accent-primary"
                  defaultChecked={selected.has(status)}
                />
                {STATUS_LABELS[status]}
              </label>
            ))}
          </div>
        </fieldset>
      </details>
    </div>
  );
}
