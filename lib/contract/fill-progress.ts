import { z } from "zod";
import { formatCount } from "./format";

/*
 * How far the mirror's first fill has come, for every view that needs it: so an incomplete view says "Reading
 * your invoices: 412,000 of 1,000,000, about 3 min left" rather than showing too few rows in silence.
 */

export const fillProgressSchema = z.object({
  /** Invoices read so far. */
  read: z.number().int(),
  /** The provider's total when the fill began; null until its first page. */
  total: z.number().int().nullable(),
  /** At the pace so far; null until there is one. */
  eta_seconds: z.number().int().nullable(),
});
export type FillProgress = z.infer<typeof fillProgressSchema>;

/** From the sync's state: whether it fills, what it has read, the total, and when it began. */
export function fillProgress(
  state: { fill_page: number | null; fill_read: number; fill_total: number | null; fill_started_at: string | null },
  now = Date.now(),
): FillProgress | null {
  if (state.fill_page === null) return null;
  const read = Math.max(0, state.fill_read);
  const total = state.fill_total;
  const done = total === null ? read : Math.min(read, total);
  const elapsed = state.fill_started_at ? (now - Date.parse(state.fill_started_at)) / 1000 : 0;
  const eta = total !== null && done > 0 && elapsed > 0 ? Math.ceil(((total - done) * elapsed) / done) : null;
  return { read: done, total, eta_seconds: eta };
}

/** "Reading your invoices: 412,000 of 1,000,000, about 3 min left". */
export function fillProgressSentence(progress: FillProgress | null | undefined): string {
  if (!progress || progress.total === null) return "Reading your invoices for the first time.";
  const left = progress.eta_seconds === null ? "" : `, ${aboutLeft(progress.eta_seconds)}`;
  return `Reading your invoices: ${formatCount(progress.read)} of ${formatCount(progress.total)}${left}.`;
}

function aboutLeft(seconds: number): string {
  if (seconds < 60) return "less than a minute left";
  if (seconds < 3600) return `about ${Math.round(seconds / 60)} min left`;
  return `about ${(seconds / 3600).toFixed(1).replace(/\.0$/, "")} h left`;
}
