import { dehydrate } from "@tanstack/react-query";
import type { Metadata } from "next";
import type { SearchParams } from "nuqs/server";
import { InvoiceTable } from "@/components/invoices/invoice-table";
import { InvoiceToolbar } from "@/components/invoices/invoice-toolbar";
import { InvoiceTotals } from "@/components/invoices/invoice-totals";
import { ServerDataBoundary } from "@/components/query/server-data-boundary";
import { getQueryClient } from "@/lib/browser/query/get-query-client";
import { currencyListOptions, invoiceListOptions, invoiceSummaryOptions, viewFilter } from "@/lib/browser/query/invoices";
import { guardPage } from "@/lib/console/bff/page";
import { listView, summarizeView } from "@/lib/console/invoices/views";
import { listSavedViews } from "@/lib/console/saved-views/store";
import { requestTimeZone } from "@/lib/console/time-zone-server";
import { upstream } from "@/lib/console/upstream/client";
import { loadInvoiceListState, toListQuery } from "@/lib/contract/invoice-list-state";
import { can } from "@/lib/contract/roles";
import { getDatabase } from "@/lib/platform/db";

export const metadata: Metadata = { title: "Invoices" };

/**
 * The first page of the current view arrives with the HTML: the server reads the URL with the client's own
 * parsers, fetches under the client's own query key, and hands the cache over for hydration.
 */
export default async function InvoicesPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const user = await guardPage("invoices:read");
  const query = toListQuery(await loadInvoiceListState(searchParams), (await requestTimeZone()).timeZone);
  const queryClient = getQueryClient();
  const [savedViews] = await Promise.all([
    listSavedViews(await getDatabase(), user),
    // The browser's own query options, fetched here straight from the upstream instead of through /api.
    queryClient.prefetchQuery({ ...invoiceListOptions(query), queryFn: () => listView(query) }),
    queryClient.prefetchQuery({ ...currencyListOptions(), queryFn: () => upstream().listCurrencies() }),
    queryClient.prefetchQuery({ ...invoiceSummaryOptions(viewFilter(query)), queryFn: () => summarizeView(query) }),
  ]);

  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Invoices</h1>
        <p className="mt-1 text-sm text-muted-foreground">Every invoice the invoicing API has issued. Click a row for its details.</p>
      </div>
      <ServerDataBoundary state={dehydrate(queryClient)}>
        <InvoiceToolbar savedViews={savedViews} />
        <InvoiceTotals />
        <InvoiceTable mayCancel={can(user.role, "invoices:change_status")} />
      </ServerDataBoundary>
    </div>
  );
}
