import "server-only";
import type { Upstream } from "@/lib/console/upstream/client";
import { upstream } from "@/lib/console/upstream/client";
import { upstreamLimit } from "@/lib/console/upstream/limiter";
import type { Invoice, SearchAnswer } from "@/lib/contract";
import { type Db, getDatabase } from "@/lib/platform/db";
import { env } from "@/lib/platform/env";
import { log } from "@/lib/platform/observability/log";
import { indexInvoices, searchIndex } from "./store";
import { createSearchSync, type SearchSync } from "./sync";

// On globalThis: Next.js may load this module in several bundles, and one process runs one sync.
const holder = globalThis as typeof globalThis & { __invoiceConsoleSearchSync?: SearchSync };

/** The console's search-index sync over the configured upstream (SEARCH_SYNC_SECONDS). */
export function searchSync(): SearchSync {
  const e = env();
  return (holder.__invoiceConsoleSearchSync ??= createSearchSync({
    db: getDatabase,
    listInvoices: (query) => upstream().listInvoices(query),
    syncSeconds: e.search.syncSeconds || 60,
    pageIntervalMs: Math.ceil(1000 / e.search.pagesPerSecond),
    // People's calls to the provider go first: the walk slows down while any is running or waiting.
    othersBusy: (own) => upstreamLimit().active > own || upstreamLimit().waiting > 0,
    leaseMs: e.upstreamTimeoutMs + 15_000,
  }));
}

/** GET /api/search: results from the index, and how complete and fresh it is. */
export async function search(q: string): Promise<SearchAnswer> {
  const [results, index] = await Promise.all([searchIndex(await getDatabase(), q), searchSync().state()]);
  // Why a sync paused may name the provider's address: that detail is for admins (the card on /users).
  return { results, index: { ...index, paused_detail: null } };
}

/**
 * A change made through the console (or announced by a webhook) shows in search at once. Never fails the
 * change itself: the next sync brings the index in step anyway.
 */
export async function indexChangedInvoice(db: Db, invoice: Invoice): Promise<void> {
  await indexInvoices(db, [invoice]).catch((error) => log.error({ err: error }, "search index: could not record a change"));
}

/** A webhook named this invoice: read it from the provider (the body may be simulated or stale) and index it. */
export async function reindexInvoice(db: Db, api: Upstream, id: string): Promise<void> {
  try {
    await indexInvoices(db, [await api.getInvoice(id)]);
  } catch (error) {
    log.warn({ err: error }, `search index: could not re-read invoice ${JSON.stringify(id)} after its webhook`);
  }
}
