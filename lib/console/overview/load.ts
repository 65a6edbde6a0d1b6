import "server-only";
import { mirrorState } from "@/lib/console/invoices/list-source";
import { mirrorSummary } from "@/lib/console/mirror/list";
import { upstream } from "@/lib/console/upstream/client";
import { ttlCache } from "@/lib/console/upstream/ttl-cache";
import { getDatabase } from "@/lib/platform/db";
import {
  type Attention,
  attentionQueue,
  completedVolume,
  mirrorCompletedVolume,
  mirrorStatusCounts,
  type StatusCount,
  statusCounts,
  type ViewTotals,
  type Volume,
} from "./overview";
import type { ResolvedPeriod } from "./period";

/**
 * The overview's cards: the counts and the completed volume from the invoice list's own totals (the console's
 * mirror) once it is ready, before that from the provider through lib/console/upstream; each kept for OVERVIEW_CACHE_SECONDS
 * in this process (lib/console/upstream/ttl-cache.ts): a reload, another person or a second tab within that time
 * makes no provider call. Per card, so one card's failure is not kept and does not hold the others back.
 */
export const OVERVIEW_CACHE_SECONDS = 30;
const ttlMs = OVERVIEW_CACHE_SECONDS * 1000;

const list = (query: Parameters<ReturnType<typeof upstream>["listInvoices"]>[0]) => upstream().listInvoices(query);

/** The invoice list's totals, for any period. */
const totals: ViewTotals = async (view) =>
  mirrorSummary(await getDatabase(), { page: 1, page_size: 1, sort_by: "created_at", sort_order: "desc", ...view });
/** The mirror answers once it has listed every invoice; until then the cards read the provider as before. */
const mirrorReady = async () => (await mirrorState()).state === "ready";

const countsCache = ttlCache<StatusCount[]>({ ttlMs });
const volumeCache = ttlCache<Volume>({ ttlMs });
// One entry per time zone people count days in.
const attentionCache = ttlCache<Attention>({ ttlMs, maxEntries: 50 });

export function loadStatusCounts(period: ResolvedPeriod): Promise<StatusCount[]> {
  return countsCache(`${period.createdAfter}|${period.createdBefore ?? ""}`, async () =>
    (await mirrorReady()) ? mirrorStatusCounts(totals, period) : statusCounts(list, period),
  );
}

export function loadCompletedVolume(period: ResolvedPeriod): Promise<Volume> {
  return volumeCache(`${period.createdAfter}|${period.createdBefore ?? ""}|${period.bucket}|${period.timeZone}`, async () =>
    (await mirrorReady()) ? mirrorCompletedVolume(totals, period) : completedVolume(list, period),
  );
}

export function loadAttention(timeZone: string): Promise<Attention> {
  return attentionCache(`attention|${timeZone}`, () => attentionQueue(list, { timeZone }));
}
