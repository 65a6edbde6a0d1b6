import "server-only";
import { env } from "@/lib/platform/env";

/**
 * "The console's own webhook inbox", stored instead of its address: as the callback URL of the demo merchant's
 * seeded invoices, and as the address of every delivery to the inbox. The address depends on where this console
 * runs (PUBLIC_URL, or the port), which can change between starts and differ between test runs, so it is resolved
 * when an invoice or a delivery is read or sent, never written into the data.
 */
export const CONSOLE_INBOX_MARKER = "urn:invoice-console:webhook-inbox";

export const WEBHOOK_INBOX_PATH = "/api/webhook-inbox";

/** A stored callback URL or delivery address as the API shows it and webhooks use it. */
export function resolveCallbackUrl(stored: string): string;
export function resolveCallbackUrl(stored: string | null): string | null;
export function resolveCallbackUrl(stored: string | null): string | null {
  return stored === CONSOLE_INBOX_MARKER ? `${env().consoleOrigin}${WEBHOOK_INBOX_PATH}` : stored;
}

/**
 * What a delivery to `url` stores: the marker for the inbox's address now (whether the invoice holds the marker or
 * that address typed out), so that it is resent to the inbox of a later start.
 */
export function storedCallbackUrl(url: string): string {
  return url === resolveCallbackUrl(CONSOLE_INBOX_MARKER) ? CONSOLE_INBOX_MARKER : url;
}
