/**
 * The console page of an invoice. Ids are the provider's, opaque: encoded as one path segment, so `a/b`,
 * `inv 1` or `50%` reach the page as they are (it decodes once).
 */
export function invoiceHref(id: string): string {
  return `/invoices/${encodeURIComponent(id)}`;
}
