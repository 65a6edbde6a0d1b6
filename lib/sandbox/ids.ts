// The sandbox's own id forms (ARCHITECTURE.md §3). The console never parses ids: to it they are opaque.
const UUID_BODY = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
const PREFIX = "invoice_";
/** A bare UUID, any case. */
export const UUID = new RegExp(`^${UUID_BODY}$`, "i");
/** An invoice id as requests may give it: `invoice_<uuid>` or the bare UUID (a pattern a schema can publish). */
export const INVOICE_ID = new RegExp(`^(${PREFIX})?${UUID_BODY}$`, "i");

/** `invoice_<uuid>` or a bare UUID → the lower-case UUID; anything else → null (ARCHITECTURE.md §3). */
export function parseInvoiceId(value: string): string | null {
  const raw = value.trim().startsWith(PREFIX) ? value.trim().slice(PREFIX.length) : value.trim();
  return UUID.test(raw) ? raw.toLowerCase() : null;
}

export function formatInvoiceId(uuid: string): string {
  return `${PREFIX}${uuid}`;
}
