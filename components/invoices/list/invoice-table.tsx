import Link from "next/link";
import type { ReactNode } from "react";
import { CopyButton } from "@/components/ui/copy-button";
import {
  SortArrow,
  type Sorted,
  sortControlClass,
  Table,
  TableBody,
  TableCard,
  TableCell,
  TableHead,
  TableHeader,
} from "@/components/ui/table";
import type { Invoice } from "@/lib/contract";
import { cryptoDecimalsShown, formatCryptoAligned, formatFiat, MISSING, shortInvoiceId } from "@/lib/contract/format";
import { invoiceHref } from "@/lib/contract/invoice-href";
import { type InvoiceListState, listSearchWith, nextSort, SORT_LABELS } from "@/lib/contract/invoice-list-state";
import type { SortField } from "@/lib/contract/list-query";
import { receivedFacts } from "@/lib/contract/received";
import { StatusBadge } from "../status-badge";
import { Time } from "../time";
import { CardSort, InvoiceCards } from "./invoice-cards";
import { PageCheckbox, RowCheckbox } from "./selection";

const numeric = "text-right tabular-nums";

/**
 * The columns, in order, from `sm` up (a phone gets cards, invoice-cards.tsx); some come back only from `lg`
 * and `xl` up, so the table does not scroll sideways (all of them take about 1,215 px: a 1,280 px window with a
 * scroll bar). Drawn from the tables' parts (components/ui/table.tsx).
 */
const COLUMNS: { id: string; label: string; sort?: SortField; className?: string }[] = [
  { id: "select", label: "Select", className: "w-8" },
  { id: "invoice_id", label: "Invoice" },
  { id: "order_id", label: "Order" },
  { id: "order_name", label: "Order name", className: "hidden xl:table-cell" },
  { id: "status", label: "Status" },
  { id: "fiat_amount", label: "Amount (EUR)", sort: "fiat_amount", className: numeric },
  { id: "crypto_amount", label: "Crypto amount", sort: "crypto_amount", className: numeric },
  // Small type, as the ids, so that every column fits 1,280 px.
  { id: "created_at", label: "Created", sort: "created_at", className: "text-xs tabular-nums hidden lg:table-cell" },
  { id: "updated_at", label: "Updated", sort: "updated_at", className: "text-xs tabular-nums hidden xl:table-cell" },
];

/**
 * The invoice list's table, rendered on the server: rows are there and usable with the HTML, the
 * sortable headers are links to the same view sorted otherwise (from page 1), and each row links to its
 * invoice. Only the checkboxes and the copy buttons are islands.
 */
export function InvoiceTable(props: {
  items: readonly Invoice[];
  state: InvoiceListState;
  timeZone: string;
  /** What goes in place of rows: the empty or the error state. */
  message?: ReactNode;
  /** A notice under the rows, e.g. the view could not be refreshed. */
  notice?: ReactNode;
  footer?: ReactNode;
  describedBy?: string;
}) {
  const { items, state } = props;
  // Every digit the provider sent, padded to the most decimals any row shows, so the points line up.
  const cryptoDecimals = items.reduce((m, row) => Math.max(m, cryptoDecimalsShown(row.crypto_amount)), 2);
  return (
    <>
      {items.length > 0 && (
        <div className="-mb-2 flex justify-end sm:hidden">
          <CardSort state={state} />
        </div>
      )}
      <TableCard>
        <InvoiceCards items={items} timeZone={props.timeZone} />
        <div className="relative hidden overflow-x-auto sm:block">
          <Table caption="Invoices" aria-describedby={props.describedBy}>
            <TableHeader>
              <tr>
                {COLUMNS.map((column) => {
                  const sorted: Sorted = column.sort && state.sort_by === column.sort ? state.sort_order : false;
                  return (
                    <TableHead key={column.id} sorted={column.sort ? sorted : undefined} className={column.className}>
                      {column.id === "select" ? (
                        <PageCheckbox />
                      ) : column.sort ? (
                        <Link
                          href={`/invoices${listSearchWith(state, nextSort(state, column.sort))}`}
                          scroll={false}
                          title={`Sort by ${SORT_LABELS[column.sort]}`}
                          className={sortControlClass(sorted)}
                        >
                          {column.label}
                          <SortArrow sorted={sorted} />
                        </Link>
                      ) : (
                        column.label
                      )}
                    </TableHead>
                  );
                })}
              </tr>
            </TableHeader>
            <TableBody>
              {items.map((row) => (
                <Row key={row.invoice_id} row={row} timeZone={props.timeZone} cryptoDecimals={cryptoDecimals} />
              ))}
            </TableBody>
          </Table>
        </div>
        {props.message}
        {props.notice}
        {props.footer}
      </TableCard>
    </>
  );
}

function Row({ row, timeZone, cryptoDecimals }: { row: Invoice; timeZone: string; cryptoDecimals: number }) {
  const href = invoiceHref(row.invoice_id);
  const td = (index: number, children: ReactNode) => <TableCell className={COLUMNS[index].className}>{children}</TableCell>;
  return (
    <tr className="hover:bg-accent/60">
      {td(0, <RowCheckbox row={{ invoice_id: row.invoice_id, order_id: row.order_id, ...receivedFacts(row) }} />)}
      {td(
        1,
        <span className="inline-flex items-center gap-1 font-mono text-xs">
          <Link href={href} className="text-link hover:underline" title={row.invoice_id} aria-label={`Open invoice ${row.invoice_id}`}>
            {shortInvoiceId(row.invoice_id)}
          </Link>
          {/* Out of the Tab order: one stop a row (the link that opens it); the invoice page copies by keyboard. */}
          <CopyButton value={row.invoice_id} label={`Copy invoice id ${row.invoice_id}`} tabIndex={-1} />
        </span>,
      )}
      {/* The order and its name open the invoice too, by mouse or touch (on a phone the invoice id is hidden);
          out of the Tab order, which keeps one stop a row. */}
      {td(
        2,
        <Link
          href={href}
          tabIndex={-1}
          className="text-xs tabular-nums text-link hover:underline sm:text-foreground"
          title={`Open invoice ${row.invoice_id}`}
        >
          {row.order_id ?? MISSING}
        </Link>,
      )}
      {td(
        3,
        <Link href={href} tabIndex={-1} className="block max-w-40 truncate 2xl:max-w-96" title={row.order_name ?? undefined}>
          {row.order_name ? <bdi>{row.order_name}</bdi> : "—"}
        </Link>,
      )}
      {td(4, <StatusBadge status={row.status} />)}
      {td(5, <span className="font-medium">{formatFiat(row.fiat_amount, row.fiat_currency)}</span>)}
      {td(
        6,
        // pre: the figure spaces that pad it to the column's decimals would otherwise hang at the line's end.
        <span className="whitespace-pre">
          {formatCryptoAligned(row.crypto_amount, cryptoDecimals)}
          <span className="ml-1.5 inline-block w-10 text-left text-xs text-muted-foreground">{row.currency ?? ""}</span>
        </span>,
      )}
      {td(7, <Time iso={row.created_at} timeZone={timeZone} />)}
      {td(8, <Time iso={row.updated_at} timeZone={timeZone} />)}
    </tr>
  );
}
