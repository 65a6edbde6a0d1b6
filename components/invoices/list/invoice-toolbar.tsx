import { BookmarkPlus, Download } from "lucide-react";
import Link from "next/link";
import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";
// The format alone, not date-input.tsx: that module would bring its client input into the list's first load.
import { DAY_FORMAT } from "@/components/ui/date-format";
import type { Currency } from "@/lib/contract";
import { formatCalendarDay } from "@/lib/contract/format-date";
import {
  CREATED_PRESETS,
  type CreatedPreset,
  FILTER_KEYS,
  hasFilters,
  type InvoiceListState,
  listSearchWith,
  toListQuery,
} from "@/lib/contract/invoice-list-state";
import { invoiceListQueryToSearchParams, VIEW_QUERY_MAX } from "@/lib/contract/list-query";
import type { SavedView } from "@/lib/contract/saved-view";
import { LazyExportMenu, LazyGoToInvoice, LazySaveView } from "./after-hydration";
import { AutoSubmitForm } from "./auto-submit-form";
import { StatusFilter } from "./status-filter";

const PRESET_LABELS: Record<CreatedPreset, string> = {
  "7d": "Last 7 days",
  "30d": "Last 30 days",
  "90d": "Last 90 days",
  "12m": "Last 12 months",
};

const control =
  "h-control w-full min-w-0 rounded-md border border-input bg-card px-2.5 text-sm text-card-foreground shadow-xs placeholder:text-muted-foreground aria-invalid:border-danger-text aria-invalid:ring-1 aria-invalid:ring-danger-text";

const isoDay = (date: Date | null) => (date ? date.toISOString().slice(0, 10) : "");

/**
 * The list's toolbar: a GET form of the URL's own keys, rendered on the server, so it filters
 * before and without script ("Apply"); with script each change applies by itself (AutoSubmitForm).
 */
export function InvoiceToolbar({
  state,
  currencies,
  savedViews,
  timeZone,
  unreadDays = {},
}: {
  state: InvoiceListState;
  /** What was typed in From or To that is not a day: kept in its field and said under it. */
  unreadDays?: { from?: string; to?: string };
  /** null: the list of currencies could not be read. */
  currencies: Currency[] | null;
  savedViews: SavedView[];
  timeZone: string;
}) {
  const custom =
    !state.created && (state.from !== null || state.to !== null || unreadDays.from !== undefined || unreadDays.to !== undefined);
  const currencyOptions = [
    { value: "", label: currencies === null ? "All (list unavailable)" : "All currencies" },
    ...(currencies ?? []).map((c) => ({ value: c.code, label: `${c.code} · ${c.name}` })),
    // Keep a currency from a shared link selectable even without the list.
    ...(state.currency && !currencies?.some((c) => c.code === state.currency) ? [{ value: state.currency, label: state.currency }] : []),
  ];
  const cleared = listSearchWith(state, Object.fromEntries(FILTER_KEYS.map((k) => [k, null])));
  const preset = state.created ? PRESET_LABELS[state.created] : null;
  // Every control has one place whatever the view: what does not apply is drawn disabled there, saying why.
  return (
    <div className="flex flex-col gap-3">
      <AutoSubmitForm aria-label="Filter the list" className="flex flex-col gap-1.5">
        <div className="flex flex-wrap items-end gap-3">
          <Labelled label="Search in list" id="list-search" className="w-full sm:w-60">
            <input
              id="list-search"
              type="search"
              name="q"
              defaultValue={state.q ?? ""}
              maxLength={VIEW_QUERY_MAX}
              placeholder="Order id, name or invoice id"
              className={control}
            />
          </Labelled>
          <StatusFilter value={state.status ?? []} />
          <Labelled label="Currency" id="currency-filter" className="min-w-36 flex-1 sm:w-40 sm:flex-none">
            <select
              id="currency-filter"
              name="currency"
              defaultValue={state.currency ?? ""}
              data-value={state.currency ?? ""}
              className={control}
            >
              {currencyOptions.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          </Labelled>
          <Labelled label="Created" id="created-filter" className="min-w-36 flex-1 sm:w-40 sm:flex-none">
            <select
              id="created-filter"
              name="created"
              defaultValue={state.created ?? (custom ? "custom" : "")}
              data-value={state.created ?? (custom ? "custom" : "")}
              className={control}
            >
              <option value="">Any time</option>
              {Object.keys(CREATED_PRESETS).map((p) => (
                <option key={p} value={p}>
                  {PRESET_LABELS[p as CreatedPreset]}
                </option>
              ))}
              <option value="custom">Custom range…</option>
            </select>
          </Labelled>
          <fieldset className="flex gap-3">
            <legend className="sr-only">Custom date range (days in {timeZone})</legend>
            <DateField label="From" name="from" value={state.from} typed={unreadDays.from} presetLabel={preset} />
            <DateField label="To" name="to" value={state.to} typed={unreadDays.to} presetLabel={preset} />
          </fieldset>
          {state.sort_by !== "created_at" && <input type="hidden" name="sort_by" value={state.sort_by} />}
          {state.sort_order !== "desc" && <input type="hidden" name="sort_order" value={state.sort_order} />}
          {state.page_size !== 20 && <input type="hidden" name="page_size" value={state.page_size} />}
          {/* Together: at 1,280 px the whole row fits on one line, and narrower neither button is left alone. */}
          <div className="flex gap-1">
            <Button type="submit" variant="ghost">
              Apply
            </Button>
            {hasFilters(state) ? (
              <Button asChild variant="ghost">
                <Link href={`/invoices${cleared}`} scroll={false}>
                  Reset filters
                </Link>
              </Button>
            ) : (
              <>
                <Button type="button" variant="ghost" disabled title="No filter is set" aria-describedby="reset-reason">
                  Reset filters
                </Button>
                <span id="reset-reason" hidden>
                  No filter is set
                </span>
              </>
            )}
          </div>
        </div>
        <RangeLine state={state} preset={preset} timeZone={timeZone} unread={unreadDays} />
      </AutoSubmitForm>
      <div className="flex flex-wrap items-end gap-3">
        <LazySaveView
          views={savedViews}
          placeholder={
            <Button disabled title="Saving a view needs JavaScript">
              <BookmarkPlus aria-hidden /> Save view
            </Button>
          }
        />
        <LazyExportMenu
          placeholder={
            // Before (or without) script: a plain link that downloads the view as CSV; the menu takes its place after.
            <Button asChild>
              <a href={viewExportHref(state, timeZone)} download title="Download this view as CSV">
                <Download aria-hidden /> Export
              </a>
            </Button>
          }
        />
        <LazyGoToInvoice placeholder={<GoToInvoiceForm />} />
      </div>
      {state.sort_by === "crypto_amount" && !state.currency && (
        <p role="note" className="text-xs text-muted-foreground">
          Sorted by the number alone, across currencies (100 DOGE comes after 0.5 BTC).{" "}
          <a href="#currency-filter" className="text-link underline-offset-4 hover:underline">
            Choose one currency
          </a>{" "}
          to compare like with like.
        </p>
      )}
    </div>
  );
}

/**
 * "Open by invoice or order id" as the server draws it: before its script (go-to-invoice.tsx) arrives, and
 * without script, a GET of the list searched for what was typed (`q` finds order ids and invoice ids).
 */
function GoToInvoiceForm() {
  return (
    <form
      method="get"
      action="/invoices"
      className="flex w-full flex-col gap-1 sm:ml-auto sm:w-auto"
      role="search"
      aria-label="Open an invoice by invoice or order id"
    >
      <div className="flex max-w-full flex-col gap-1 sm:max-w-80">
        <label htmlFor="go-to-invoice" className="text-xs font-medium text-muted-foreground">
          Open by invoice or order id
        </label>
        <div className="flex gap-2">
          <input
            id="go-to-invoice"
            name="q"
            maxLength={200}
            placeholder="Paste an invoice or order id"
            className={`${control} font-mono placeholder:font-sans sm:w-64`}
          />
          <Button type="submit">Open</Button>
        </div>
      </div>
    </form>
  );
}

function Labelled({ label, id, className, children }: { label: string; id: string; className?: string; children: ReactNode }) {
  return (
    <div className={`flex flex-col gap-1 ${className ?? ""}`}>
      <label htmlFor={id} className="text-xs font-medium text-muted-foreground">
        {label}
      </label>
      {children}
    </div>
  );
}

function DateField(props: { label: string; name: "from" | "to"; value: Date | null; typed?: string; presetLabel: string | null }) {
  const id = `${props.name}-filter`;
  return (
    <div className="flex w-28 flex-col gap-1">
      <label htmlFor={id} className="text-xs font-medium text-muted-foreground">
        {props.label}
      </label>
      {/* Typed as YYYY-MM-DD (components/ui/date-input.tsx); under a preset the days do not apply, and say so. */}
      <input
        id={id}
        type="text"
        name={props.name}
        defaultValue={props.presetLabel ? "" : (props.typed ?? isoDay(props.value))}
        aria-invalid={props.typed !== undefined && !props.presetLabel ? true : undefined}
        disabled={props.presetLabel !== null}
        placeholder={DAY_FORMAT}
        pattern="\d{4}-\d{2}-\d{2}"
        maxLength={10}
        autoComplete="off"
        spellCheck={false}
        aria-describedby="range-line"
        className={`${control} disabled:cursor-not-allowed disabled:opacity-60`}
      />
    </div>
  );
}

/**
 * One line under the filters saying how the days read (the whole day counts, in the zone whose day it is) or
 * why they do not apply: one line in every state, so nothing below it moves.
 */
function RangeLine({
  state,
  preset,
  timeZone,
  unread,
}: {
  state: InvoiceListState;
  preset: string | null;
  timeZone: string;
  unread: { from?: string; to?: string };
}) {
  const from = state.from && formatCalendarDay(state.from);
  const to = state.to && formatCalendarDay(state.to);
  const reversed = !preset && state.from && state.to && state.from > state.to;
  const notDays = preset ? [] : (["from", "to"] as const).filter((key) => unread[key] !== undefined);
  const warn = reversed || notDays.length > 0;
  return (
    <p id="range-line" className={`min-h-8 text-xs sm:min-h-4 sm:truncate ${warn ? "text-danger-text" : "text-muted-foreground"}`}>
      {preset
        ? `From and To are not used with “${preset}”: choose “Custom range…” in Created to type days.`
        : notDays.length > 0
          ? `${notDays.map((key) => `“${unread[key]}” in ${key === "from" ? "From" : "To"}`).join(" and ")} ${notDays.length > 1 ? "are not days" : "is not a day"} of the calendar: type it as ${DAY_FORMAT}; until then it is not used.`
          : reversed
            ? "“From” is after “To”: the dates are ignored until you swap them."
            : from || to
              ? [from && `From the start of ${from}, ${timeZone}`, to && `To the end of ${to}, ${timeZone}`].filter(Boolean).join(" · ")
              : `From and To: days as ${DAY_FORMAT}, in ${timeZone}.`}
    </p>
  );
}

/** GET /api/invoices/export of exactly this view, as CSV: what the Export menu downloads, as a link. */
function viewExportHref(state: InvoiceListState, timeZone: string): string {
  const { page: _page, page_size: _size, ...filter } = toListQuery(state, timeZone);
  const params = invoiceListQueryToSearchParams(filter);
  params.set("format", "csv");
  return `/api/invoices/export?${params}`;
}
