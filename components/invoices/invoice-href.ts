/**
 * The console page of an invoice. Ids are the provider's, opaque: encoded as one path segment, so `a/b`,
 * `inv 1` or `50%` reach the page as they are (it decodes once).
 */
export function invoiceHref(id: string): string {
  return `/invoices/${encodeURIComponent(id)}`;
}

/** Where the list was: the invoice table remembers its query so "← All invoices" restores filters, sort and page. */
export const LIST_SEARCH_KEY = "invoice-console:list-search";
