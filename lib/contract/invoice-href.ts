/**
 * The console page of an invoice. Ids are the provider's, opaque: encoded as one path segment, so `a/b`,
 * `inv 1` or `50%` reach the page as they are (it decodes once).
 */
export function invoiceHref(id: string): string {
  return `/invoices/${encodeURIComponent(id)}`;
}

/**
 * "." and "..": encoding leaves them as they are and every URL parser resolves them to another path
 * (`/invoices/..` is `/`), so such an id can never name one invoice; it is refused, never sent.
 */
export function isDotSegment(id: string): boolean {
  return id === "." || id === "..";
}
