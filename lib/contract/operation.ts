/**
 * "GET /invoices/{id}": the method and the path with its ids and query left out, as the spec names operations.
 * The upstream client's metrics and spans and the sandbox's spans name a call by it (never by an id).
 */
export function operationOf(method: string, path: string): string {
  const pattern = path.split("?")[0].replace(/^\/invoices\/[^/]+/, "/invoices/{id}");
  return `${method} ${pattern}`;
}
