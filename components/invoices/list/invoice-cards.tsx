import Link from "next/link";
import type { Invoice } from "@/lib/contract";
import { formatCrypto, formatFiat, MISSING, shortInvoiceId } from "@/lib/contract/format";
import { invoiceHref } from "@/lib/contract/invoice-href";
import { type InvoiceListState, listSearchWith, SORT_LABELS } from "@/lib/contract/invoice-list-state";
import { SORT_FIELDS } from "@/lib/contract/list-query";
import { receivedFacts } from "@/lib/contract/received";
import { StatusBadge } from "../status-badge";
import { Time } from "../time";
import { PageCheckbox, RowCheckbox } from "./selection";

/**
 * The list on a phone: a card a row, with what triage needs (order, status, when it was made, both amounts)
 * and the row's checkbox, so a selection and the bulk bar work there too. From `sm` up the table is shown.
 */
export function InvoiceCards({ items, timeZone }: { items: readonly Invoice[]; timeZone: string }) {
  if (items.length === 0) return null;
  return (
    <div className="sm:hidden">
      {/* The page's checkbox is named by itself ("Select the rows of this page"); the words beside it say so. */}
      <div className="flex items-center gap-3 border-b border-border bg-muted px-3 py-2 text-xs font-medium text-muted-foreground">
        <PageCheckbox />
        <span>Rows of this page</span>
      </div>
      <ul aria-label="Invoices" className="divide-y divide-border">
        {items.map((row) => (
          <li key={row.invoice_id} data-invoice-card className="flex items-start gap-3 px-3 py-3 hover:bg-accent/60">
            <span className="pt-0.5">
              <RowCheckbox row={{ invoice_id: row.invoice_id, order_id: row.order_id, ...receivedFacts(row) }} />
            </span>
            <div className="grid min-w-0 flex-1 gap-1">
              <div className="flex items-center justify-between gap-2">
                <Link href={invoiceHref(row.invoice_id)} className="truncate text-sm font-medium text-link tabular-nums hover:underline">
                  {row.order_id ?? (row.invoice_id ? shortInvoiceId(row.invoice_id) : MISSING)}
                </Link>
                <StatusBadge status={row.status} />
              </div>
              {row.order_name && (
                <p className="truncate text-xs text-muted-foreground">
                  <bdi>{row.order_name}</bdi>
                </p>
              )}
              <div className="flex items-baseline justify-between gap-2 text-sm tabular-nums">
                <span className="font-medium">{formatFiat(row.fiat_amount, row.fiat_currency)}</span>
                <span className="truncate text-muted-foreground">
                  {formatCrypto(row.crypto_amount)} {row.currency ?? ""}
                </span>
              </div>
              <p className="text-xs text-muted-foreground tabular-nums">
                Created <Time iso={row.created_at} timeZone={timeZone} />
              </p>
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Each order a phone can sort the cards by, named as the table's headers name their columns; high to low first. */
const CARD_SORTS = SORT_FIELDS.flatMap((field) => {
  const [first, last] = field.endsWith("_at") ? ["newest first", "oldest first"] : ["highest first", "lowest first"];
  const name = SORT_LABELS[field].charAt(0).toUpperCase() + SORT_LABELS[field].slice(1);
  return [
    { sort_by: field, sort_order: "desc", label: `${name}, ${first}` },
    { sort_by: field, sort_order: "asc", label: `${name}, ${last}` },
  ] as const;
});

/**
 * On a phone, the cards' order, said, and the others as links (a disclosure: no script needed), each from page 1.
 * Outside the table's card, whose edge would clip the open list.
 */
export function CardSort({ state }: { state: InvoiceListState }) {
  const current = CARD_SORTS.find((s) => s.sort_by === state.sort_by && s.sort_order === state.sort_order);
  return (
    // Keyed by the view: another order or page draws it closed.
    <details key={listSearchWith(state, {})} className="relative text-xs">
      <summary className="cursor-pointer list-none rounded-sm px-1 py-0.5 font-medium text-foreground underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-ring [&::-webkit-details-marker]:hidden">
        Sort: {current?.label ?? CARD_SORTS[0].label} ▾
      </summary>
      <ul
        aria-label="Sort the invoices"
        className="absolute right-0 z-10 mt-1 w-64 rounded-md border border-border bg-popover p-1 shadow-md"
      >
        {CARD_SORTS.map((s) => (
          <li key={s.label}>
            <Link
              href={`/invoices${listSearchWith(state, { sort_by: s.sort_by, sort_order: s.sort_order })}`}
              scroll={false}
              aria-current={s === current ? "true" : undefined}
              className="block rounded-sm px-2 py-1.5 text-sm text-foreground hover:bg-accent aria-[current]:font-semibold"
            >
              {s.label}
            </Link>
          </li>
        ))}
      </ul>
    </details>
  );
}
