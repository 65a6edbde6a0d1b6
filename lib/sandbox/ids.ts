// The sandbox's own id forms (ARCHITECTURE.md §3). The console never parses ids: to it they are opaque.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PREFIX = "invoice_";

/** `invoice_<uuid>` or a bare UUID → the lower-case UUID; anything else → null (ARCHITECTURE.md §3). */
export function parseInvoiceId(value: string): string | null {
  const raw = value.trim().startsWith(PREFIX) ? value.trim().slice(PREFIX.length) : value.trim();
  return UUID.test(raw) ? raw.toLowerCase() : null;
}

export function formatInvoiceId(uuid: string): string {
  return `${PREFIX}${uuid}`;
}
