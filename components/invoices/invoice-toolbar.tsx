"use client";

import { useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { type ComponentProps, type FormEvent, useEffect, useState } from "react";
import { useTimeZone } from "@/components/time-zone/time-zone-provider";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Select, type SelectOption } from "@/components/ui/select";
import { fetchJson } from "@/lib/browser/query/fetch-json";
import { currencyListOptions } from "@/lib/browser/query/invoices";
import { formatCalendarDay } from "@/lib/contract/format";
import { CREATED_PRESETS, type CreatedPreset, hasFilters, serializeInvoiceListState } from "@/lib/contract/invoice-list-state";
import { VIEW_QUERY_MAX } from "@/lib/contract/list-query";
import { type OpenByIdTarget, openByIdTarget } from "@/lib/contract/open-by-id";
import type { SavedView } from "@/lib/contract/saved-view";
import { ExportMenu } from "./export-menu";
import { invoiceHref } from "./invoice-href";
import { SaveView } from "./save-view";
import { StatusFilter } from "./status-filter";
import { useInvoiceListState } from "./use-invoice-list-state";

const PRESET_LABELS: Record<CreatedPreset, string> = {
  "7d": "Last 7 days",
  "30d": "Last 30 days",
  "90d": "Last 90 days",
  "12m": "Last 12 months",
};

const toIsoDate = (date: Date | null) => (date ? date.toISOString().slice(0, 10) : "");
const fromIsoDate = (value: string) => (value ? new Date(`${value}T00:00:00Z`) : null);

export function InvoiceToolbar({ savedViews }: { savedViews: SavedView[] }) {
  const { state, update, resetFilters } = useInvoiceListState();
  const timeZone = useTimeZone();
  const currencies = useQuery(currencyListOptions());
  const [customRange, setCustomRange] = useState(false);
  const showCustom = customRange || (!state.created && (state.from !== null || state.to !== null));
  const createdValue = state.created ?? (showCustom ? "custom" : "");

  return (
    <div className="flex flex-wrap items-end gap-3">
      <ListSearch value={state.q ?? ""} onChange={(q) => update({ q: q || null })} />
      <StatusFilter value={state.status ?? []} onChange={(status) => update({ status })} />
      <SelectField
        id="currency-filter"
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
        <fieldset className="flex flex-wrap items-start gap-2">
          <legend className="sr-only">Custom date range (days in {timeZone})</legend>
          <DateField
            label="From"
            edge="from"
            timeZone={timeZone}
            value={state.from}
            max={state.to}
            onChange={(from) => update({ from, created: null })}
          />
          <DateField
            label="To"
            edge="to"
            timeZone={timeZone}
            value={state.to}
            min={state.from}
            onChange={(to) => update({ to, created: null })}
          />
          {state.from && state.to && state.from > state.to && (
            <p role="alert" className="self-center text-xs text-danger-text">
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
      <SaveView views={savedViews} />
      <ExportMenu />
      {state.sort_by === "crypto_amount" && !state.currency && (
        <p role="note" className="w-full text-xs text-muted-foreground">
          Sorted by the number alone, across currencies (100 DOGE comes after 0.5 BTC).{" "}
          <Button
            variant="link"
            className="h-auto px-0 align-baseline text-xs"
            onClick={() => document.getElementById("currency-filter")?.focus()}
          >
            Choose one currency
          </Button>{" "}
          to compare like with like.
        </p>
      )}
    </div>
  );
}

/**
 * Text inside the list (issue 24): an order id or its start, words of the order name, or an invoice id. Applied
 * a moment after typing stops, or at once with Enter; answered from the mirror, combined with every filter.
 */
function ListSearch(props: { value: string; onChange: (q: string) => void }) {
  const [text, setText] = useState(props.value);
  // Back/forward or "Reset filters" change the URL: the box follows.
  useEffect(() => setText(props.value), [props.value]);
  useEffect(() => {
    if (text.trim() === props.value.trim()) return;
    const timer = setTimeout(() => props.onChange(text.trim()), 400);
    return () => clearTimeout(timer);
  }, [text, props]);
  return (
    <form
      role="search"
      aria-label="Search in the list"
      className="min-w-48 flex-1 sm:flex-none"
      onSubmit={(e) => {
        e.preventDefault();
        props.onChange(text.trim());
      }}
    >
      <Field label="Search in list">
        <Input
          type="search"
          name="q"
          value={text}
          maxLength={VIEW_QUERY_MAX}
          onChange={(e) => setText(e.target.value)}
          placeholder="Order id, name words, invoice id"
          className="w-full sm:w-60"
        />
      </Field>
    </form>
  );
}

function SelectField({ label, options, id, ...props }: ComponentProps<typeof Select> & { label: string; options: SelectOption[] }) {
  return (
    <Field label={label} id={id} className="min-w-36 flex-1 sm:flex-none">
      <Select options={options} className="w-full" {...props} />
    </Field>
  );
}

function DateField(props: {
  label: string;
  edge: "from" | "to";
  timeZone: string;
  value: Date | null;
  min?: Date | null;
  max?: Date | null;
  onChange: (date: Date | null) => void;
}) {
  // The browser draws the date input in its own format; the day is repeated in the table's format, with the
  // zone whose day it is (the whole day counts: from its start, or to its end).
  const day = props.value && formatCalendarDay(props.value);
  return (
    <Field
      label={props.label}
      description={
        day ? `${props.edge === "from" ? "From the start of" : "To the end of"} ${day}, ${props.timeZone}` : `Any day (${props.timeZone})`
      }
    >
      <Input
        type="date"
        value={toIsoDate(props.value)}
        min={toIsoDate(props.min ?? null) || undefined}
        max={toIsoDate(props.max ?? null) || undefined}
        onChange={(e) => props.onChange(fromIsoDate(e.target.value))}
      />
    </Field>
  );
}

/**
 * "Open by invoice or order id" (issue 24): what was typed is looked up in the console's index (GET /api/search,
 * exact order id first, then the invoice id exact or its tail). One invoice → its page; several sharing an
 * order id → the list filtered by it; none → its page by the id as typed, since the provider may know an
 * invoice the index does not yet (the invoice page says so if it does not). Ids are the provider's and opaque.
 */
function GoToInvoice() {
  const router = useRouter();
  const [value, setValue] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const typed = value.trim();
    if (!typed) {
      setError("Paste an order id or the full invoice id (the copy button beside each short id copies it).");
      return;
    }
    setPending(true);
    let target: OpenByIdTarget = { kind: "invoice", id: typed };
    try {
      const answer = await fetchJson(`/api/search?${new URLSearchParams({ q: typed })}`, (c) => c.searchAnswerSchema);
      target = openByIdTarget(typed, answer.results);
    } catch {
      // The index cannot answer now: the provider may still know it as an invoice id.
    }
    setPending(false);
    router.push(target.kind === "invoice" ? invoiceHref(target.id) : `/invoices${serializeInvoiceListState({ q: target.q })}`);
  }

  return (
    <form
      onSubmit={submit}
      className="flex w-full flex-col gap-1 sm:ml-auto sm:w-auto"
      role="search"
      aria-label="Open an invoice by invoice or order id"
    >
      <Field label="Open by invoice or order id" id="go-to-invoice" error={error} className="max-w-full sm:max-w-80">
        <div className="flex gap-2">
          <Input
            value={value}
            maxLength={200}
            onChange={(e) => {
              setValue(e.target.value);
              setError(null);
            }}
            placeholder="Paste an invoice or order id"
            className="font-mono placeholder:font-sans sm:w-64"
          />
          <Button type="submit" loading={pending}>
            Open
          </Button>
        </div>
      </Field>
    </form>
  );
}
