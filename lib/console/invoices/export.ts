import "server-only";
import { LosslessNumber, stringify as stringifyLossless } from "lossless-json";
import Papa from "papaparse";
import {
  EXPORT_INCOMPLETE,
  EXPORT_PAGE_SIZE,
  type ExportFormat,
  exportFileName,
  INVOICE_CSV_COLUMNS,
  type Invoice,
  type InvoiceCsvColumn,
  type InvoiceList,
} from "@/lib/contract";
import { csvNeedsQuotes, csvTextCell } from "@/lib/contract/csv-formula";
import type { InvoiceViewQuery } from "@/lib/contract/invoice-view";
import { Problem, problemSentence, toProblem } from "@/lib/contract/problem";
import { log } from "@/lib/platform/observability/log";

/*
 * The export: every invoice of a list view, walked page by page from the provider and streamed
 * out as it goes, so no more than one page is ever held.
 *
 * The rule that keeps the walk consistent while invoices are added: the export fixes an upper bound before its
 * first call — created_before = the moment it starts (or the view's own bound, when earlier) — and keeps the
 * view's filter and sort. An invoice created during the walk lies beyond the bound, so it is in no page and
 * moves no row from one page to the next. An invoice added with an earlier creation date (the archive can
 * back-date one) can still push rows one place down; every id written is remembered (ids only: 100,000 of them
 * are a few megabytes), so a row that comes round again is never written twice. What no bound can hold still:
 * an invoice that leaves a status filter, or moves in an updated_at or amount order, while the walk runs can
 * move the rows behind it up by one, and one of them can be missed. Sorted by created date ascending (the
 * rule's best case), only back-dated additions move rows, and only down.
 */

export type ListPage = (query: InvoiceViewQuery) => Promise<InvoiceList>;
export type ExportPlan = { query: InvoiceViewQuery; total: number; fileName: string; pages: AsyncGenerator<Invoice[]> };

/** The view's query bounded at `now`, its first page fetched (so a failure here is an ordinary problem), and the rest to walk. */
export async function planExport(
  listPage: ListPage,
  view: InvoiceViewQuery,
  options: { format: ExportFormat; bom?: boolean },
  timeZone: string,
  now = new Date(),
): Promise<ExportPlan> {
  const bound = view.created_before && Date.parse(view.created_before) < now.getTime() ? view.created_before : now.toISOString();
  const query: InvoiceViewQuery = { ...view, created_before: bound, page: 1, page_size: EXPORT_PAGE_SIZE };
  // A view that starts after the bound (created_after in the future, up to 9999-12-31) holds no invoice: an
  // empty file, without asking the provider a range it would refuse as inverted.
  if (view.created_after && Date.parse(view.created_after) >= Date.parse(bound)) {
    return { query, total: 0, fileName: exportFileName(view, options.format, timeZone, options.bom), pages: (async function* () {})() };
  }
  const first = await listPage(query);
  return {
    query,
    total: first.pagination.total_records,
    fileName: exportFileName(query, options.format, timeZone, options.bom),
    pages: walk(listPage, query, first),
  };
}

async function* walk(listPage: ListPage, query: InvoiceViewQuery, first: InvoiceList): AsyncGenerator<Invoice[]> {
  let list = first;
  const written = new Set<string>();
  for (let page = 1; ; page++) {
    if (page > 1) list = await listPage({ ...query, page });
    const fresh = list.items.filter((invoice) => !written.has(invoice.invoice_id));
    for (const invoice of fresh) written.add(invoice.invoice_id);
    if (fresh.length) yield fresh;
    if (!list.pagination.has_next || list.items.length === 0) return;
  }
}

type Cell = string | number;

/** The CSV's amount columns: decimal strings written exactly as carried (the provider's digits), never quoted. */
const AMOUNT_COLUMNS = new Set<InvoiceCsvColumn>([
  "fiat_amount",
  "crypto_amount",
  "payment_amount_due",
  "payment_amount_received",
  "payment_rate",
]);
const AMOUNT_INDEXES = new Set(INVOICE_CSV_COLUMNS.flatMap((column, i) => (AMOUNT_COLUMNS.has(column) ? [i] : [])));

/**
 * One invoice as the CSV's cells: payment fields flattened, transaction hashes joined with spaces, absent → empty.
 * Text has its control and direction characters shown by code ("<U+001B>") and is neutralised against formula
 * injection in every part a spreadsheet could split it into (lib/contract/csv-formula.ts); numbers are written as they are, and amounts (decimal strings) with exactly
 * their digits — `0.123456789012345678`, `100000000000000.01` — in plain notation, never as a float.
 */
export function invoiceCsvCells(invoice: Invoice): Cell[] {
  const payment = invoice.payment;
  const values: Record<InvoiceCsvColumn, string | number | null | undefined> = {
    invoice_id: invoice.invoice_id,
    order_id: invoice.order_id,
    order_name: invoice.order_name,
    status: invoice.status,
    fiat_amount: invoice.fiat_amount,
    fiat_currency: invoice.fiat_currency,
    crypto_amount: invoice.crypto_amount,
    currency: invoice.currency,
    // Which amount was given (`fiat`, `crypto`; empty when the provider does not say): the archive import
    // sends that one, so an export imported again is the same record (README, "Recording archived invoices").
    priced_in: invoice.priced_in,
    allowed_error_percent: invoice.allowed_error_percent,
    callback_url: invoice.callback_url,
    created_at: invoice.created_at,
    updated_at: invoice.updated_at,
    expires_at: invoice.expires_at,
    payment_address: payment?.address,
    payment_network: payment?.network,
    payment_amount_due: payment?.amount_due,
    payment_amount_received: payment?.amount_received,
    payment_rate: payment?.rate,
    payment_paid_at: payment?.paid_at,
    payment_confirmations: payment?.confirmations,
    payment_confirmations_required: payment?.confirmations_required,
    tx_hashes: payment?.transactions
      .map((t) => t.tx_hash)
      .filter(Boolean)
      .join(" "),
  };
  return INVOICE_CSV_COLUMNS.map((column) => {
    const value = values[column];
    if (value === null || value === undefined) return "";
    if (typeof value === "number") return value;
    // A canonical decimal string (lib/contract/money.ts): digits, one point, maybe a minus — no formula.
    if (AMOUNT_COLUMNS.has(column)) return value;
    return csvTextCell(value);
  });
}

// Formula injection is dealt with cell by cell above (papaparse's escapeFormulae looks at the first character
// only, and would prefix a plain-decimal amount such as "-0.00000025"). Every text cell with a separator a
// spreadsheet may split on (`;` in many European locales, tab, line breaks), a quote or a neutralised trigger
// is quoted; numbers and amounts never are.
const CSV_OPTIONS = {
  header: false,
  newline: "\r\n",
  quotes: (value: unknown, column: number) => !AMOUNT_INDEXES.has(column) && typeof value === "string" && csvNeedsQuotes(value),
};
const csvLines = (rows: Cell[][]) => `${Papa.unparse(rows, CSV_OPTIONS)}\r\n`;

export type Encoder = {
  start: (plan: Pick<ExportPlan, "query" | "total">) => string;
  rows: (invoices: Invoice[], written: number) => string;
  end: (written: number, failure: Problem | null) => string;
};

export function csvEncoder(options: { bom: boolean }): Encoder {
  return {
    start: () => (options.bom ? "\uFEFF" : "") + csvLines([[...INVOICE_CSV_COLUMNS]]),
    rows: (invoices) => csvLines(invoices.map(invoiceCsvCells)),
    end: (written, failure) => (failure ? csvLines([[csvTextCell(incompleteMessage(written, failure))]]) : ""),
  };
}

/**
 * `{"export": {...}, "items": [` then one invoice a line, then `], "complete": true, "row_count": n}` — or
 * `"complete": false` with the problem as `error`. A file cut off any other way is not valid JSON at all.
 */
export function jsonEncoder(now = new Date()): Encoder {
  return {
    start: ({ query, total }) => {
      const { page: _page, page_size: _size, ...filter } = query;
      return `{"export":${JSON.stringify({ started_at: now.toISOString(), filter, total_records: total })},"items":[\n`;
    },
    rows: (invoices, written) => invoices.map((invoice, i) => `${written + i > 0 ? "," : ""}${invoiceJson(invoice)}\n`).join(""),
    end: (written, failure) =>
      `],"complete":${failure ? "false" : "true"},"row_count":${written}${failure ? `,"error":${JSON.stringify({ ...failure.toJSON(), detail: incompleteMessage(written, failure) })}` : ""}}\n`,
  };
}

/**
 * One invoice as JSON, its amounts as raw JSON numbers with exactly the provider's digits
 * (`"crypto_amount":0.123456789012345678`), never a float's: lossless-json writes a LosslessNumber's text.
 */
export function invoiceJson(invoice: Invoice): string {
  const exact = (amount: string | null) => (amount === null ? null : new LosslessNumber(amount));
  const payment = invoice.payment && {
    ...invoice.payment,
    amount_due: exact(invoice.payment.amount_due),
    amount_received: exact(invoice.payment.amount_received),
    rate: exact(invoice.payment.rate),
    transactions: invoice.payment.transactions.map((tx) => ({ ...tx, amount: exact(tx.amount) })),
  };
  return stringifyLossless({ ...invoice, fiat_amount: exact(invoice.fiat_amount), crypto_amount: exact(invoice.crypto_amount), payment })!;
}

function incompleteMessage(written: number, failure: Problem): string {
  // One line, so the file's last line holds the whole message.
  const why = problemSentence(failure).replace(/\s+/g, " ");
  return `${EXPORT_INCOMPLETE}: only the first ${written} rows are here. The invoicing API failed midway (${why}). Export again.`;
}

/**
 * The file as a byte stream that asks the provider for the next page only when the reader wants more, and
 * stops walking when the reader goes away. A failure after the first byte ends the file with its mark.
 */
export function exportStream(plan: ExportPlan, encoder: Encoder): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder();
  let written = 0;
  let started = false;
  // The reader may go away while a page is on its way: nothing is written after that.
  let cancelled = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!started) {
          started = true;
          controller.enqueue(bytes.encode(encoder.start(plan)));
          return;
        }
        let failure: Problem | null = null;
        try {
          const next = await plan.pages.next();
          if (cancelled) return;
          if (!next.done) {
            controller.enqueue(bytes.encode(encoder.rows(next.value, written)));
            written += next.value.length;
            return;
          }
        } catch (error) {
          if (cancelled) return;
          // An unexpected error is logged by toProblem, with its stack; a problem (the provider's) is said here.
          failure = toProblem(error);
          if (error instanceof Problem)
            log.warn(
              { code: failure.code, rows: written },
              `invoice export stopped after ${written} rows: ${failure.code} ${failure.detail ?? ""}`,
            );
        }
        const end = encoder.end(written, failure);
        if (end) controller.enqueue(bytes.encode(end));
        controller.close();
      },
      async cancel() {
        cancelled = true;
        await plan.pages.return(undefined);
      },
    },
    { highWaterMark: 0 },
  );
}
