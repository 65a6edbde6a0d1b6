"use client";

import { ChevronDown } from "lucide-react";
import { useId } from "react";
import { Button } from "@/components/ui/button";
import { Popover, PopoverContent, PopoverTrigger } from "@/components/ui/popover";
import { ALL_INVOICE_STATUSES, type AnyInvoiceStatus, STATUS_LABELS } from "@/lib/contract/status";

/** What the button says: every status, one, two by name, or how many. */
export function statusSummary(selected: readonly AnyInvoiceStatus[]): string {
  if (selected.length === 0) return "All statuses";
  if (selected.length <= 2) return selected.map((s) => STATUS_LABELS[s]).join(", ");
  return `${selected.length} statuses`;
}

/**
 * The status filter: any number of statuses (pending and partly paid together). A view of several is answered
 * from the console's mirror (issue 24), which the totals line says; one status still comes from the provider.
 */
export function StatusFilter(props: { value: readonly AnyInvoiceStatus[]; onChange: (value: AnyInvoiceStatus[] | null) => void }) {
  const labelId = useId();
  const selected = new Set(props.value);
  const toggle = (status: AnyInvoiceStatus, on: boolean) => {
    const next = ALL_INVOICE_STATUSES.filter((s) => (s === status ? on : selected.has(s)));
    props.onChange(next.length ? next : null);
  };
  return (
    <div className="flex min-w-36 flex-1 flex-col gap-1 sm:flex-none">
      <span id={labelId} className="text-xs font-medium text-muted-foreground">
        Status
      </span>
      <Popover>
        <PopoverTrigger asChild>
          <Button className="w-full min-w-0 justify-between font-normal sm:w-auto" aria-labelledby={`${labelId} ${labelId}-value`}>
            <span id={`${labelId}-value`} className="truncate">
              {statusSummary(props.value)}
            </span>
            <ChevronDown aria-hidden className="size-4 opacity-60" />
          </Button>
        </PopoverTrigger>
        <PopoverContent align="start" className="w-60 p-2">
          <fieldset>
            <legend className="px-2 pb-1 text-xs text-muted-foreground">Show invoices that are</legend>
            {ALL_INVOICE_STATUSES.map((status) => (
              <label key={status} className="flex cursor-pointer items-center gap-2 rounded-md px-2 py-1.5 hover:bg-muted">
                <input
                  type="checkbox"
                  className="size-4 accent-primary"
                  checked={selected.has(status)}
                  onChange={(e) => toggle(status, e.target.checked)}
                />
                {STATUS_LABELS[status]}
              </label>
            ))}
          </fieldset>
          {props.value.length > 0 && (
            <Button variant="ghost" size="sm" className="mt-1 w-full" onClick={() => props.onChange(null)}>
              All statuses
            </Button>
          )}
        </PopoverContent>
      </Popover>
    </div>
  );
}
