import "server-only";
import { and, asc, desc, eq, gt, inArray, type SQL } from "drizzle-orm";
import type { AnyInvoiceStatus, InvoiceListQuery, InvoiceStatus } from "@/lib/contract";
import { paginationOf } from "@/lib/contract/invoice";
import { notFound, Problem } from "@/lib/contract/problem";
import type { Db } from "@/lib/platform/db";
import { invoices, transactions } from "@/lib/sandbox/schema";
import { resolveCallbackUrl } from "./callback-url";
import { explorerUrl, findCurrency } from "./currencies";
import { formatInvoiceId, parseInvoiceId } from "./ids";
import { countInvoices, type InvoiceFilter, invoiceFilterSql } from "./invoice-counts";
import type { Caller } from "./keys";
import { walkStart } from "./sort-buckets";
import { enqueueStatusWebhook } from "./webhooks";
import { amount, amountOrNull, type WireInvoice as Invoice } from "./wire";
import type { ApiInvoiceList } from "./wire-schemas";

type InvoiceList = Omit<ApiInvoiceList, "items"> & { items: Invoice[] };

type InvoiceRow = typeof invoices.$inferSelect;
type TransactionRow = typeof transactions.$inferSelect;

const SORT_COLUMNS = {
  created_at: invoices.createdAt,
  updated_at: invoices.updatedAt,
  fiat_amount: invoices.fiatAmount,
  crypto_amount: invoices.cryptoAmount,
} as const;

/**
 * GET /invoices: one page in the requested order, ties broken by id so pages never overlap (ARCHITECTURE.md §3).
 *
 * Fast at any depth of a million invoices: the total comes from the rollup (invoice-counts.ts),
 * the page's ids are found by walking the offset in an index alone (every filter column is in the sort
 * indexes), and only those rows are read. A page past the middle is walked from the other end of the index,
 * so the last page is as cheap as the first, and a page deep in the list from the bucket of its sort key
 * (sort-buckets.ts). Total and rows are read in one snapshot, so they agree.
 */
export async function listInvoices(db: Db, caller: Caller, query: InvoiceListQuery, options: WalkOptions = {}): Promise<InvoiceList> {
  const filter: InvoiceFilter = {
    merchantId: caller.merchantId,
    status: query.status,
    // The sandbox's codes are upper case; a filter in any case finds them.
    currency: query.currency?.toUpperCase(),
    createdAfter: query.created_after ? new Date(query.created_after) : undefined,
    createdBefore: query.created_before ? new Date(query.created_before) : undefined,
  };
  const offset = (query.page - 1) * query.page_size;

  const { total, items } = await db.transaction(
    async (tx) => {
      const total = await countInvoices(tx, filter);
      if (offset >= total) return { total, items: [] };
      const limit = Math.min(query.page_size, total - offset);
      const walk = await planWalk(tx, filter, query, { total, offset, limit }, options.bucketWalkFrom ?? BUCKET_WALK_FROM);
      const rows = await readPage(tx, filter, query.sort_by, query.sort_order, limit, walk);
      return { total, items: await withTransactions(tx, rows) };
    },
    // One snapshot for the total, the rows and their transactions, whatever other instances commit between.
    { isolationLevel: "repeatable read", accessMode: "read only" },
  );

  return { items, pagination: paginationOf(query.page, query.page_size, total) };
}

/** Where the walk in the index to a page starts, and in which direction it goes. */
type Walk = { offset: number; reverse: boolean; from?: SQL };

/** Deeper than this from both ends, a page is found from its bucket (sort-buckets.ts) instead of from an end. */
const BUCKET_WALK_FROM = 10_000;

/** For tests: from which depth buckets are used (0: always, so that small lists take that path too). */
export type WalkOptions = { bucketWalkFrom?: number };

/**
 * How to reach the page's first row: from the nearer end of the index (past the middle, by skipping the rows
 * after it in the reverse order), or, deep in a list, from the bucket of the sort key that holds it, so that
 * the walk is at most one bucket long (where sort-buckets.ts has buckets for the filter).
 */
async function planWalk(
  db: Db,
  filter: InvoiceFilter,
  query: InvoiceListQuery,
  { total, offset, limit }: { total: number; offset: number; limit: number },
  bucketWalkFrom: number,
): Promise<Walk> {
  const after = total - offset - limit;
  const ascending = query.sort_order === "asc";
  if (Math.min(offset, after) >= bucketWalkFrom) {
    const start = await walkStart(db, filter, query.sort_by, ascending ? offset : after);
    if (start) return { offset: start.skip, reverse: !ascending, from: start.from };
  }
  return after < offset ? { offset: after, reverse: true } : { offset, reverse: false };
}

/** Finds the page's ids in an index (an index-only walk of the offset), then reads just those rows. */
async function readPage(
  db: Db,
  filter: InvoiceFilter,
  sortBy: InvoiceListQuery["sort_by"],
  sortOrder: InvoiceListQuery["sort_order"],
  limit: number,
  walk: Walk,
): Promise<InvoiceRow[]> {
  const ascending = sortOrder === "asc";
  const order = (up: boolean) => (up ? [asc(SORT_COLUMNS[sortBy]), asc(invoices.id)] : [desc(SORT_COLUMNS[sortBy]), desc(invoices.id)]);
  const page = db
    .select({ pageId: invoices.id })
    .from(invoices)
    .where(and(invoiceFilterSql(filter), startOfUpdates(filter, sortBy), walk.from))
    .orderBy(...order(ascending !== walk.reverse))
    .limit(limit)
    .offset(walk.offset)
    .as("page");
  const rows = await db
    .select({ invoice: invoices })
    .from(page)
    .innerJoin(invoices, eq(invoices.id, page.pageId))
    .orderBy(...order(ascending));
  return rows.map((r) => r.invoice);
}

/**
 * With a created range, sorted by updated_at: nothing in the range was updated before the range starts
 * (updated_at >= created_at holds for every invoice, a check of the table), so the walk can begin there
 * instead of at the merchant's oldest change. The same rows, far fewer index entries passed over.
 */
function startOfUpdates(filter: InvoiceFilter, sortBy: InvoiceListQuery["sort_by"]): SQL | undefined {
  return sortBy === "updated_at" && filter.createdAfter ? gt(invoices.updatedAt, filter.createdAfter) : undefined;
}

/**
 * GET /invoices/{id}. An id that names no invoice — malformed, unknown — is a 404; an invoice of another
 * merchant is a 403, as the spec lists for this operation (ARCHITECTURE.md §3).
 */
export async function getInvoice(db: Db, caller: Caller, rawId: string): Promise<Invoice> {
  const row = await findOwnInvoice(db, caller, rawId);
  const [invoice] = await withTransactions(db, [row]);
  return invoice;
}

/**
 * PATCH /invoices/{id}: any of the six statuses, from any status but archived (a record, kept as recorded: 422).
 * Setting the status it already has changes nothing, `updated_at` included.
 */
/**
 * Sets an invoice's status. A real change moves `updated_at` and queues the status webhook in the same
 * transaction, with the row locked so that two changes at once each see the status the other left.
 */
export async function updateInvoiceStatus(db: Db, caller: Caller, rawId: string, status: InvoiceStatus): Promise<Invoice> {
  return db.transaction(async (tx) => {
    const row = await findOwnInvoice(tx, caller, rawId, { lock: true });
    if (row.status === "archived") {
      throw Problem.of("archived_invoice", {
        detail: "This invoice is an archived record (created with POST /archived); its status stays archived.",
        errors: [
          {
            pointer: "/status",
            code: "archived_invoice",
            detail: "cannot be changed: the invoice is an archived record, kept as it was recorded",
          },
        ],
      });
    }
    if (row.status === status) return (await withTransactions(tx, [row]))[0];
    // Never before created_at, whatever another instance's clock said when it created the invoice.
    const updatedAt = new Date(Math.max(Date.now(), row.createdAt.getTime()));
    const [updated] = await tx.update(invoices).set({ status, updatedAt }).where(eq(invoices.id, row.id)).returning();
    const [invoice] = await withTransactions(tx, [updated]);
    await enqueueStatusWebhook(tx, { merchantId: row.merchantId, invoice, previousStatus: row.status, simulated: false });
    return invoice;
  });
}

async function findOwnInvoice(db: Db, caller: Caller, rawId: string, options: { lock?: boolean } = {}): Promise<InvoiceRow> {
  const id = parseInvoiceId(rawId);
  const query = db
    .select()
    .from(invoices)
    .where(eq(invoices.id, id ?? ""))
    .limit(1);
  const [row] = id ? await (options.lock ? query.for("update") : query) : [];
  if (!row) throw notFound(`No invoice has the id ${JSON.stringify(rawId)}.`);
  if (row.merchantId !== caller.merchantId) {
    throw Problem.of("other_merchant", {
      title: "This invoice belongs to another merchant",
      detail: "The API key's merchant does not own this invoice.",
    });
  }
  return row;
}

export async function withTransactions(db: Db, rows: InvoiceRow[]): Promise<Invoice[]> {
  const ids = rows.filter((r) => r.paymentAddress !== null).map((r) => r.id);
  const txs = ids.length
    ? await db.select().from(transactions).where(inArray(transactions.invoiceId, ids)).orderBy(asc(transactions.seenAt))
    : [];
  const byInvoice = new Map<string, TransactionRow[]>();
  for (const t of txs) byInvoice.set(t.invoiceId, [...(byInvoice.get(t.invoiceId) ?? []), t]);
  return rows.map((row) => toApiInvoice(row, byInvoice.get(row.id) ?? []));
}

function toApiInvoice(row: InvoiceRow, txs: TransactionRow[]): Invoice {
  const currency = findCurrency(row.currency);
  return {
    invoice_id: formatInvoiceId(row.id),
    order_id: row.orderId,
    order_name: row.orderName,
    // Only PATCH, POST /archived and the seed write it, each one of the seven.
    status: row.status as AnyInvoiceStatus,
    fiat_amount: amount(row.fiatAmount),
    fiat_currency: row.fiatCurrency,
    crypto_amount: amount(row.cryptoAmount),
    currency: row.currency,
    allowed_error_percent: row.allowedErrorPercent,
    callback_url: resolveCallbackUrl(row.callbackUrl),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    expires_at: row.expiresAt?.toISOString() ?? null,
    // Archived invoices only (a sandbox extension): which amount was given; the other was derived at payment.rate.
    ...(row.pricedIn === "fiat" || row.pricedIn === "crypto" ? { priced_in: row.pricedIn } : {}),
    // An archived invoice records the rate it was priced at, though no payment address was ever issued.
    payment:
      row.paymentAddress === null && row.rate === null
        ? null
        : {
            address: row.paymentAddress,
            network: currency?.network ?? null,
            amount_due: amount(row.cryptoAmount),
            amount_received: amountOrNull(row.amountReceived),
            rate: amountOrNull(row.rate),
            paid_at: row.paidAt?.toISOString() ?? null,
            confirmations: row.confirmations,
            confirmations_required: row.confirmationsRequired,
            transactions: txs.map((t) => ({
              tx_hash: t.txHash,
              amount: amount(t.amount),
              confirmations: t.confirmations,
              block_height: t.blockHeight,
              seen_at: t.seenAt.toISOString(),
              explorer_url: explorerUrl(row.currency, t.txHash),
            })),
          },
  };
}
