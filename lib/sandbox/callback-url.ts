import "server-only";
import { env } from "@/lib/platform/env";

/**
 * Stored instead of a callback URL for the demo merchant's seeded invoices: "the console's own webhook
 * inbox". The inbox's address depends on where this console runs (PUBLIC_URL, or the port), which can change
 * between starts and differ between test runs, so it is resolved when an invoice is read or its webhook
 * queued, never written into the data.
 */
export const CONSOLE_INBOX_MARKER = "urn:invoice-console:webhook-inbox";

export const WEBHOOK_INBOX_PATH = "/api/webhook-inbox";

/** The callback URL as the API shows it and webhooks use it (a delivery's too: a seeded one keeps the marker). */
export function resolveCallbackUrl(stored: string): string;
export function resolveCallbackUrl(stored: string | null): string | null;
export function resolveCallbackUrl(stored: string | null): string | null {
  return stored === CONSOLE_INBOX_MARKER ? `${env().consoleOrigin}${WEBHOOK_INBOX_PATH}` : stored;
}

/** What a delivery to `url` stores: the marker for the inbox's address now, so that it is resent to the inbox of a later start. */
export function storedCallbackUrl(url: string): string {
  return url === resolveCallbackUrl(CONSOLE_INBOX_MARKER) ? CONSOLE_INBOX_MARKER : url;
}
