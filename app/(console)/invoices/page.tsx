import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { RememberListSearch } from "@/components/invoices/list/auto-submit-form";
import { InvoicePagination } from "@/components/invoices/list/invoice-pagination";
import { InvoiceTable } from "@/components/invoices/list/invoice-table";
import { InvoiceTableMessage } from "@/components/invoices/list/invoice-table-message";
import { InvoiceToolbar } from "@/components/invoices/list/invoice-toolbar";
import { InvoiceTotals } from "@/components/invoices/list/invoice-totals";
import { SelectionProvider } from "@/components/invoices/list/selection";
import { Notice } from "@/components/ui/notice";
import { RefreshEvery } from "@/components/ui/refresh-every";
import { readTransitionPolicy } from "@/lib/console/approvals/policy-store";
import { guardPage } from "@/lib/console/bff/page";
import { listView, summarizeView } from "@/lib/console/invoices/list-source";
import { listSavedViews } from "@/lib/console/saved-views/store";
import { requestTimeZone } from "@/lib/console/time-zone-server";
import { upstream } from "@/lib/console/upstream/client";
import {
  FILTER_KEYS,
  hasFilters,
  listSearchWith,
  type RawSearch,
  readInvoiceListSearch,
  serializeInvoiceListState,
  toListQuery,
} from "@/lib/contract/invoice-list-state";
import { busySeconds, toProblem } from "@/lib/contract/problem";
import { receivedFacts } from "@/lib/contract/received";
import { can } from "@/lib/contract/roles";
import { getDatabase } from "@/lib/platform/db";

export const metadata: Metadata = { title: "Invoices" };

/** How often a view answered from a mirror still filling is rendered again. */
const FILLING_REFRESH_MS = 3_000;

const settle = <T,>(promise: Promise<T>) =>
  promise.then(
    (value) => ({ value, error: null }),
    (error: unknown) => ({ value: null, error: toProblem(error) }),
  );

/**
 * The invoice list, rendered on the server: the URL is read with the list's own parsers (a value
 * that does not parse is said, not silently dropped), the view and its totals are fetched straight from the
 * use cases, and the toolbar, rows, totals and pages arrive as HTML with forms and links, so the list works
 * before and without script. Script adds small islands: auto-applying filters, selection, export, saved views.
 */
export default async function InvoicesPage({ searchParams }: { searchParams: Promise<RawSearch> }) {
  const user = await guardPage("invoices:read");
  const { state, notices, canonical, unreadDays } = readInvoiceListSearch(await searchParams);
  // A filter form submitted without script: the same URL its script would have pushed.
  if (canonical !== null) redirect(`/invoices${canonical}`);
  const timeZone = (await requestTimeZone()).timeZone;
  const query = toListQuery(state, timeZone);
  const [savedViews, policy, list, summary, currencies] = await Promise.all([
    getDatabase().then((db) => listSavedViews(db, user)),
    getDatabase().then(readTransitionPolicy),
    settle(listView(query)),
    settle(summarizeView(query)),
    settle(upstream().listCurrencies()),
  ]);
  const now = Date.now();
  const search = serializeInvoiceListState(state);
  const here = `/invoices${search}`;
  const items = list.value?.items ?? [];
  const pagination = list.value?.pagination;

  let message = null;
  if (list.error) {
    const busy = busySeconds(list.error);
    message =
      busy !== null ? (
        <InvoiceTableMessage kind="busy" seconds={busy} retryHref={here} />
      ) : (
        <InvoiceTableMessage kind="error" problem={list.error} retryHref={here} />
      );
  } else if (pagination && items.length === 0) {
    message =
      pagination.total_records > 0 ? (
        <InvoiceTableMessage kind="past-end" lastPageHref={`/invoices${listSearchWith(state, { page: pagination.total_pages })}`} />
      ) : list.value?.mirror?.state === "filling" ? (
        <InvoiceTableMessage kind="filling" progress={list.value.mirror.progress} />
      ) : hasFilters(state) ? (
        <InvoiceTableMessage
          kind="no-match"
          clearHref={`/invoices${listSearchWith(state, Object.fromEntries(FILTER_KEYS.map((k) => [k, null])))}`}
          search={query.q}
          otherFilters={FILTER_KEYS.some((key) => key !== "q" && state[key] !== null)}
        />
      ) : (
        <InvoiceTableMessage kind="no-invoices" />
      );
  }
  const filling = list.value?.mirror?.state === "filling" || summary.value?.state === "filling";
  const { page: _p, page_size: _s, sort_by: _b, sort_order: _o, ...filter } = query;

  return (
    <div className="flex flex-col gap-6">
      <RememberListSearch search={search} />
      {filling && <RefreshEvery ms={FILLING_REFRESH_MS} />}
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Invoices</h1>
        <p className="mt-1 text-sm text-muted-foreground">Every invoice the invoicing API has issued. Open one by its id or order.</p>
      </div>
      {notices.length > 0 && (
        <Notice role="status" tone="warning" data-testid="list-url-notice">
          {notices.map((notice) => (
            <span key={notice} className="block">
              {notice}
            </span>
          ))}
        </Notice>
      )}
      <InvoiceToolbar
        state={state}
        currencies={currencies.value?.currencies ?? null}
        savedViews={savedViews}
        timeZone={timeZone}
        unreadDays={unreadDays}
      />
      <InvoiceTotals summary={summary.value} error={summary.error?.title ?? null} now={now} />
      <SelectionProvider
        key={JSON.stringify(filter)}
        pageRows={items.map((row) => ({ invoice_id: row.invoice_id, order_id: row.order_id, ...receivedFacts(row) }))}
        total={pagination?.total_records ?? 0}
        query={query}
        viewStatuses={summary.value?.statuses ?? null}
        mayCancel={
          can(user.role, "invoices:change_status") && (policy.targets.cancelled.roles as readonly string[]).includes(user.role)
            ? { approvalOver: policy.bulk_approval_over }
            : false
        }
      >
        <InvoiceTable
          items={items}
          state={state}
          timeZone={timeZone}
          message={message}
          describedBy={pagination && pagination.total_records > 0 ? "invoice-range" : undefined}
          footer={pagination && pagination.total_records > 0 && <InvoicePagination pagination={pagination} state={state} />}
        />
      </SelectionProvider>
    </div>
  );
}
