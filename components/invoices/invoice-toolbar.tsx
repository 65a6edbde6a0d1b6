"use client";

import { useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { SelectField } from "@/components/ui/select-field";
import { ALL_INVOICE_STATUSES, STATUS_LABELS } from "@/lib/invoicing";
import { currencyListOptions } from "@/lib/query/invoices";
import { CREATED_PRESETS, hasFilters, type CreatedPreset } from "@/lib/query/invoice-list-state";
import { invoiceHref } from "./invoice-href";
import { useInvoiceListState } from "./use-invoice-list-state";

const PRESET_LABELS: Record<CreatedPreset, string> = {
  "7d": "Last 7 days",
  "30d": "Last 30 days",
  "90d": "Last 90 days",
  "12m": "Last 12 months",
};

const toIsoDate = (date: Date | null) => (date ? date.toISOString().slice(0, 10) : "");
const fromIsoDate = (value: string) => (value ? new Date(`${value}T00:00:00Z`) : null);

export function InvoiceToolbar() {
  const { state, update, resetFilters } = useInvoiceListState();
  const currencies = useQuery(currencyListOptions());
  const [customRange, setCustomRange] = useState(false);
  const showCustom = customRange || (!state.created && (state.from !== null || state.to !== null));
  const createdValue = state.created ?? (showCustom ? "custom" : "");

  return (
    <div className="flex flex-wrap items-end gap-3">
      <SelectField
        label="Status"
        value={state.status ?? ""}
        onChange={(e) => update({ status: (e.target.value || null) as typeof state.status })}
        options={[{ value: "", label: "All statuses" }, ...ALL_INVOICE_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] }))]}
      />
      <SelectField
        label="Currency"
        value={state.currency ?? ""}
        onChange={(e) => update({ currency: e.target.value || null })}
        options={[
          { value: "", label: currencies.isError ? "All (list unavailable)" : "All currencies" },
          ...(currencies.data?.currencies ?? []).map((c) => ({ value: c.code, label: `${c.code} · ${c.name}` })),
          // Keep a currency from a shared link selectable even before (or without) the list.
          ...(state.currency && !currencies.data?.currencies.some((c) => c.code === state.currency)
            ? [{ value: state.currency, label: state.currency }]
            : []),
        ]}
      />
      <SelectField
        label="Created"
        value={createdValue}
        onChange={(e) => {
          const value = e.target.value;
          setCustomRange(value === "custom");
          if (value === "custom") update({ created: null });
          else update({ created: (value || null) as CreatedPreset | null, from: null, to: null });
        }}
        options={[
          { value: "", label: "Any time" },
          ...Object.keys(CREATED_PRESETS).map((p) => ({ value: p, label: PRESET_LABELS[p as CreatedPreset] })),
          { value: "custom", label: "Custom range…" },
        ]}
      />
      {showCustom && (
        <fieldset className="flex items-end gap-2">
          <legend className="sr-only">Custom date range (UTC days)</legend>
          <DateField label="From (UTC)" value={state.from} max={state.to} onChange={(from) => update({ from, created: null })} />
          <DateField label="To (UTC)" value={state.to} min={state.from} onChange={(to) => update({ to, created: null })} />
          {state.from && state.to && state.from > state.to && (
            <p role="alert" className="self-center text-xs text-rose-700">
              “From” is after “To”: the dates are ignored until you swap them.
            </p>
          )}
        </fieldset>
      )}
      {hasFilters(state) && (
        <Button
          variant="ghost"
          onClick={() => {
            setCustomRange(false);
            resetFilters();
          }}
        >
          Reset filters
        </Button>
      )}
      <GoToInvoice />
    </div>
  );
}

function DateField(props: { label: string; value: Date | null; min?: Date | null; max?: Date | null; onChange: (date: Date | null) => void }) {
  return (
    <label className="flex flex-col gap-1 text-xs font-medium text-zinc-600">
      {props.label}
      <input
        type="date"
        value={toIsoDate(props.value)}
        min={toIsoDate(props.min ?? null) || undefined}
        max={toIsoDate(props.max ?? null) || undefined}
        onChange={(e) => props.onChange(fromIsoDate(e.target.value))}
        className="h-9 rounded-md border border-zinc-300 bg-white px-2.5 text-sm font-normal text-zinc-900 shadow-xs"
      />
    </label>
  );
}

/**
 * The spec's list has no search: a pasted invoice id opens that invoice directly. Ids are the provider's and
 * opaque, so what was pasted (trimmed) is asked for as it is, and the invoice page reports the answer.
 */
function GoToInvoice() {
  const router = useRouter();
  const [value, setValue] = useState("");
  const [error, setError] = useState<string | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    const id = value.trim();
    if (!id) {
      setError("Paste the full invoice id (the copy button beside each short id copies it).");
      return;
    }
    router.push(invoiceHref(id));
  }

  return (
    <form onSubmit={submit} className="ml-auto flex flex-col gap-1" role="search" aria-label="Open an invoice by id">
      <label htmlFor="go-to-invoice" className="text-xs font-medium text-zinc-600">
        Open by invoice id
      </label>
      <div className="flex gap-2">
        <input
          id="go-to-invoice"
          value={value}
          onChange={(e) => {
            setValue(e.target.value);
            setError(null);
          }}
          placeholder="Paste an invoice id"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "go-to-invoice-error" : undefined}
          className="h-9 w-64 rounded-md border border-zinc-300 bg-white px-2.5 font-mono text-sm shadow-xs placeholder:font-sans placeholder:text-zinc-400"
        />
        <Button type="submit">Open</Button>
      </div>
      {error && (
        <p id="go-to-invoice-error" className="text-xs text-rose-700">
          {error}
        </p>
      )}
    </form>
  );
}
