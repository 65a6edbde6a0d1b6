import { ChevronLeft, ChevronRight, ChevronsLeft, ChevronsRight } from "lucide-react";
import Link from "next/link";
import type { ReactNode } from "react";
import { buttonVariants } from "@/components/ui/button";
import { cn } from "@/lib/browser/cn";
import type { Pagination } from "@/lib/contract";
import { formatCount } from "@/lib/contract/format";
import { type InvoiceListState, listSearchWith, PAGE_SIZES, serializeInvoiceListState } from "@/lib/contract/invoice-list-state";
import { AutoSubmitForm } from "./auto-submit-form";

/**
 * Page size, where you are ("41–60 of 2,013") and first/previous/next/last, rendered on the server:
 * the pages are links and the page size a GET form, so both work before and without script. On a phone it
 * wraps to two lines and the word labels give way to arrows, which keep their accessible names.
 */
export function InvoicePagination({ pagination, state }: { pagination: Pagination; state: InvoiceListState }) {
  const page = pagination.current_page;
  const lastPage = Math.max(pagination.total_pages, 1);
  const total = pagination.total_records;
  const first = Math.min((page - 1) * pagination.page_size + 1, total);
  const last = Math.min(page * pagination.page_size, total);
  const to = (target: number) => `/invoices${listSearchWith(state, { page: target })}`;
  // The page size's form carries the rest of the view, as hidden fields, and starts again at page 1.
  const rest = [...new URLSearchParams(serializeInvoiceListState({ ...state, page: null, page_size: null }))];

  return (
    <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 border-t border-border px-4 py-3 text-sm text-muted-foreground">
      <AutoSubmitForm className="flex items-center gap-2">
        {rest.map(([key, value]) => (
          <input key={key} type="hidden" name={key} value={value} />
        ))}
        <label htmlFor="page-size" className="text-sm">
          Rows per page
        </label>
        <select
          id="page-size"
          name="page_size"
          defaultValue={state.page_size}
          data-value={state.page_size}
          className="h-control-sm rounded-md border border-input bg-card px-2 text-sm text-card-foreground shadow-xs"
        >
          {PAGE_SIZES.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
        <button type="submit" className={cn(buttonVariants({ variant: "ghost", size: "sm" }))}>
          Show
        </button>
      </AutoSubmitForm>
      <p id="invoice-range" className="tabular-nums" aria-live="polite">
        {page > pagination.total_pages
          ? `No rows here; ${formatCount(total)} in all`
          : `${formatCount(first)}–${formatCount(last)} of ${formatCount(total)}`}
      </p>
      <nav aria-label="Pagination" className="flex items-center gap-1">
        <PageLink href={page > 1 ? to(1) : null} label="First page" icon>
          <ChevronsLeft aria-hidden />
        </PageLink>
        <PageLink href={page > 1 ? to(Math.min(page - 1, lastPage)) : null} label="Previous page">
          <ChevronLeft aria-hidden />
          <span className="hidden sm:inline">Prev</span>
        </PageLink>
        <span className="px-1 whitespace-nowrap tabular-nums">
          Page {formatCount(page)} of {formatCount(lastPage)}
        </span>
        <PageLink href={page < lastPage ? to(page + 1) : null} label="Next page">
          <span className="hidden sm:inline">Next</span>
          <ChevronRight aria-hidden />
        </PageLink>
        <PageLink href={page < lastPage ? to(lastPage) : null} label="Last page" icon>
          <ChevronsRight aria-hidden />
        </PageLink>
      </nav>
    </div>
  );
}

/** A page link, or where there is no such page, a disabled button of the same look. */
function PageLink({ href, label, icon, children }: { href: string | null; label: string; icon?: boolean; children: ReactNode }) {
  const classes = buttonVariants({ variant: "ghost", size: icon ? "icon-sm" : "sm" });
  if (href === null)
    return (
      <button type="button" disabled aria-label={label} className={classes}>
        {children}
      </button>
    );
  return (
    <Link href={href} scroll={false} aria-label={label} className={classes}>
      {children}
    </Link>
  );
}
