import { TriangleAlert } from "lucide-react";
import type { CsvRow } from "@/lib/browser/archive/csv";
import type { RowPricing } from "@/lib/browser/archive/pricing";
import { formatDecimal } from "@/lib/contract/money";

/** Rows listed in full; every flagged row is listed whatever its place, the rest up to this many. */
const SHOWN = 50;

const unit = (row: CsvRow, field: RowPricing["sent"]) => (field === "fiat_amount" ? "EUR" : (row.body?.currency ?? ""));

function SentCell({ row, pricing }: { row: CsvRow; pricing: RowPricing }) {
  const value = row.body?.[pricing.sent];
  return (
    <td className="px-3 py-2">
      <span className="font-mono text-xs">{pricing.sent}</span>{" "}
      <span className="whitespace-nowrap tabular-nums">
        {/* A EUR amount in cents as people read it; what is sent is the file's own figure. */}
        {pricing.sent === "fiat_amount" && typeof value === "string" ? formatDecimal(value, { minDecimals: 2 }) : value}{" "}
        {unit(row, pricing.sent)}
      </span>
      <p className="text-xs text-muted-foreground">
        {pricing.because === "priced_in" && `priced_in is ${pricing.sent === "fiat_amount" ? "fiat" : "crypto"}`}
        {pricing.because === "only_amount" && "the row's only amount"}
        {pricing.because === "default_fiat" && "priced_in is empty: the EUR amount (the ledger's) is sent"}
      </p>
    </td>
  );
}

function DerivedCell({ row, pricing }: { row: CsvRow; pricing: RowPricing }) {
  const currency = row.body?.currency ?? "";
  const flags = row.warnings;
  return (
    <td className="px-3 py-2">
      <span className="font-mono text-xs">{pricing.derived}</span>{" "}
      {pricing.expected !== null && pricing.rate !== null ? (
        <span className="tabular-nums">
          will be derived as {pricing.expected} {unit(row, pricing.derived)} at 1 {currency} = €
          {formatDecimal(pricing.rate, { minDecimals: 2 })}
        </span>
      ) : pricing.rate !== null ? (
        <span>
          derived by the provider at 1 {currency} = €{formatDecimal(pricing.rate, { minDecimals: 2 })}, to its own decimals
        </span>
      ) : (
        <span>derived by the provider at its rate for created_at</span>
      )}
      {pricing.fileValue !== null && flags.length === 0 && (
        <p className="text-xs text-muted-foreground">the file says {pricing.fileValue}; not sent</p>
      )}
      {flags.map((w) => (
        <p
          key={w.field + w.message}
          className="mt-1 flex items-start gap-1.5 rounded-sm border border-warning-border bg-warning-muted px-2 py-1 text-xs text-warning-text"
        >
          <TriangleAlert aria-hidden className="mt-0.5 size-3.5 shrink-0" />
          <span>
            <span className="font-medium">Check: </span>
            {w.field === pricing.derived ? "" : `${w.field} `}
            {w.message}
          </span>
        </p>
      ))}
    </td>
  );
}

/**
 * The rows that will be sent, before anything is: for each, the amount sent (and why that one) and the other
 * as the provider will derive it — at the file's payment_rate when it has one — with a flag where that differs
 * from the file's value (README, "Recording archived invoices in the console").
 */
export function CsvPreview({ rows }: { rows: CsvRow[] }) {
  const flagged = rows.filter((r) => r.warnings.length > 0).length;
  const shown = rows.filter((r, i) => r.warnings.length > 0 || i < SHOWN);
  return (
    <div className="flex flex-col gap-2">
      {flagged > 0 && (
        <p role="status" className="flex items-start gap-2 text-sm text-warning-text" data-testid="import-flagged">
          <TriangleAlert aria-hidden className="mt-0.5 size-4 shrink-0" />
          {flagged} row{flagged === 1 ? "" : "s"} flagged: recorded as sent, but the derived amount will not be the file&apos;s. Check them
          below; set priced_in in the file to keep the other amount.
        </p>
      )}
      <div
        className="max-h-[28rem] overflow-auto rounded-md border border-border"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (WCAG 2.1.1)
        tabIndex={0}
        role="region"
        aria-label="Rows to record, scrollable"
      >
        <table className="w-full text-sm" aria-label="Rows to record">
          <thead className="sticky top-0 bg-muted text-left text-xs text-muted-foreground">
            <tr>
              <th className="px-3 py-2 font-medium">Line</th>
              <th className="px-3 py-2 font-medium">Order id</th>
              <th className="px-3 py-2 font-medium">Sent</th>
              <th className="px-3 py-2 font-medium">Derived by the provider</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((row) => (
              <tr key={row.line} className="border-t border-border align-top" data-flagged={row.warnings.length > 0 || undefined}>
                <td className="px-3 py-2 tabular-nums">{row.line}</td>
                <td className="px-3 py-2 font-mono text-xs whitespace-nowrap">{row.order_id}</td>
                {row.pricing && <SentCell row={row} pricing={row.pricing} />}
                {row.pricing && <DerivedCell row={row} pricing={row.pricing} />}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {shown.length < rows.length && (
        <p className="text-xs text-muted-foreground">
          {rows.length - shown.length} more rows without a flag are not listed; they are sent as read.
        </p>
      )}
    </div>
  );
}
