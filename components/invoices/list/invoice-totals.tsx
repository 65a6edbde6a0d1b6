import { fillProgressSentence } from "@/lib/contract/fill-progress";
import { formatAge, formatCount, formatCrypto, formatFiat } from "@/lib/contract/format";
import type { InvoiceSummary } from "@/lib/contract/invoice-view";

/** "86 invoices · €12,345.67 · 0.42 BTC · 1,050.00 USDT": the view's count and exact sums, one figure per currency. */
export function summaryFigures(summary: Pick<InvoiceSummary, "count" | "fiat" | "crypto">): string[] {
  const byCode = (record: Record<string, string>) => Object.entries(record).sort(([a], [b]) => a.localeCompare(b));
  return [
    `${formatCount(summary.count)} ${summary.count === 1 ? "invoice" : "invoices"}`,
    ...byCode(summary.fiat).map(([code, sum]) => formatFiat(sum, code)),
    ...byCode(summary.crypto).map(([code, sum]) => `${formatCrypto(sum)} ${code}`),
  ];
}

/**
 * "including 12 cancelled and 40 expired": a view's sums are of what was invoiced, so a reader reconciling
 * receipts learns which of them no payment is expected for. Null when there are none, or nothing else.
 */
export function voidedNote(summary: Pick<InvoiceSummary, "count" | "statuses">): string | null {
  const parts = (["cancelled", "expired"] as const).flatMap((status) => {
    const n = summary.statuses[status] ?? 0;
    return n > 0 ? [{ n, text: `${formatCount(n)} ${status}` }] : [];
  });
  const voided = parts.reduce((sum, part) => sum + part.n, 0);
  if (voided === 0 || voided === summary.count) return null;
  return `including ${parts.map((part) => part.text).join(" and ")}`;
}

/**
 * What the sums are and how fresh: "amounts invoiced, including 12 cancelled; as of 2 min ago". Invoiced, not
 * received: a partly paid invoice counts at its full amount.
 */
export function totalsNote(summary: Pick<InvoiceSummary, "count" | "statuses" | "as_of" | "state" | "progress">, now = Date.now()): string {
  const what = ["amounts invoiced", voidedNote(summary)].filter(Boolean).join(", ");
  return `${what}; ${freshness(summary, now)}`;
}

/** How fresh the mirror the totals come from is, in words. */
export function freshness(summary: Pick<InvoiceSummary, "as_of" | "state" | "progress">, now = Date.now()): string {
  if (summary.state === "filling") return `partial: ${fillProgressSentence(summary.progress).replace(/\.$/, "")}`;
  if (!summary.as_of) return "not yet synced";
  return `as of ${formatAge((now - Date.parse(summary.as_of)) / 1000)}`;
}

/**
 * The view's totals under the toolbar, for every view: from the console's mirror of the provider's
 * invoices, with how fresh it is, so a reconciliation needs no spreadsheet. Rendered on the server with the rows.
 */
export function InvoiceTotals({ summary, error, now }: { summary: InvoiceSummary | null; error: string | null; now: number }) {
  return (
    <section aria-label="Totals of this view" aria-live="polite" className="min-h-6 text-sm">
      {summary ? (
        // Each figure carries its "·" before it, and the line is shifted left by one: a figure that starts a
        // wrapped line has its "·" cut off with the overflow, so no line starts with one.
        <div className="overflow-hidden">
          <p className="-ml-4 flex flex-wrap items-baseline gap-y-1">
            {summaryFigures(summary).map((figure, i) => (
              <span
                key={figure}
                className={`${i === 0 ? "font-medium" : "tabular-nums"} relative whitespace-nowrap pl-4 before:absolute before:left-0 before:w-4 before:text-center before:text-muted-foreground before:content-['·']`}
                data-testid={i === 0 ? "totals-count" : undefined}
              >
                {figure}
              </span>
            ))}
            <span className="pl-4 text-xs text-muted-foreground">({totalsNote(summary, now)})</span>
          </p>
        </div>
      ) : (
        <p className="text-muted-foreground">Totals are unavailable: {error}</p>
      )}
    </section>
  );
}
