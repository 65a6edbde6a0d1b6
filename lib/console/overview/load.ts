import "server-only";
import { upstream } from "@/lib/console/upstream/client";
import { ttlCache } from "@/lib/console/upstream/ttl-cache";
import { type Attention, attentionQueue, completedVolume, type StatusCount, statusCounts, type Volume } from "./overview";
import type { ResolvedPeriod } from "./period";

/**
 * The overview's cards, each read from the provider through lib/console/upstream and kept for OVERVIEW_CACHE_SECONDS
 * in this process (lib/console/upstream/ttl-cache.ts): a reload, another person or a second tab within that time
 * makes no provider call. Per card, so one card's failure is not kept and does not hold the others back.
 */
export const OVERVIEW_CACHE_SECONDS = 30;
const ttlMs = OVERVIEW_CACHE_SECONDS * 1000;

const list = (query: Parameters<ReturnType<typeof upstream>["listInvoices"]>[0]) => upstream().listInvoices(query);

const countsCache = ttlCache<StatusCount[]>({ ttlMs });
const volumeCache = ttlCache<Volume>({ ttlMs });
const attentionCache = ttlCache<Attention>({ ttlMs, maxEntries: 1 });

export function loadStatusCounts(period: ResolvedPeriod): Promise<StatusCount[]> {
  return countsCache(`${period.createdAfter}|${period.createdBefore ?? ""}`, () => statusCounts(list, period));
}

export function loadCompletedVolume(period: ResolvedPeriod): Promise<Volume> {
  return volumeCache(`${period.createdAfter}|${period.createdBefore ?? ""}|${period.bucket}|${period.timeZone}`, () =>
    completedVolume(list, period),
  );
}

export function loadAttention(): Promise<Attention> {
  return attentionCache("attention", () => attentionQueue(list));
}
