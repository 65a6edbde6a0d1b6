import { CopyButton } from "@/components/ui/copy-button";
import { DateTime } from "@/components/ui/date-time";
import { DescriptionItem, DescriptionList } from "@/components/ui/description-list";
import { compareDecimal, type Decimal, type Invoice, isZero, multiplyDecimal, subtractDecimal } from "@/lib/contract";
import { formatCount, formatCrypto, formatEur, formatEurComputed, MISSING } from "@/lib/contract/format";

/** Amounts show every digit the provider sent (lib/contract/format.ts), whatever the currency's decimals. */
type Props = { invoice: Invoice };

/** Where and how much to pay, what came in, and — for a partly paid invoice — what is still owed. */
export function InvoicePayment({ invoice }: Props) {
  const payment = invoice.payment;
  if (!payment) {
    return (
      <p className="text-sm text-muted-foreground">No payment details: this invoice has no payment address (archived records have none).</p>
    );
  }
  const crypto = (amount: Decimal | null | undefined) => (amount != null ? `${formatCrypto(amount)} ${invoice.currency ?? ""}` : MISSING);
  const { amount_due: due, amount_received: received, rate } = payment;
  // Decimal arithmetic (issue 22): what is owed is exact; only its EUR worth at the rate is rounded, and marked.
  const owed = due != null && received != null && compareDecimal(received, due) < 0 ? subtractDecimal(due, received) : null;
  return (
    <DescriptionList>
      <DescriptionItem label="Network">{payment.network ?? MISSING}</DescriptionItem>
      <DescriptionItem label="Address">
        {payment.address ? (
          <span className="flex items-start gap-1 font-mono text-xs">
            <span className="min-w-0 break-all">{payment.address}</span>
            <CopyButton value={payment.address} label="Copy address" />
          </span>
        ) : (
          MISSING
        )}
      </DescriptionItem>
      <DescriptionItem label="Amount due" numeric>
        {crypto(due)}
      </DescriptionItem>
      <DescriptionItem label="Amount received" numeric>
        {crypto(received)}
        {/* What came in is worth something in EUR even when it is not the full amount. */}
        {received != null && !isZero(received) && rate != null && (
          <span className="text-muted-foreground"> · {formatEurComputed(multiplyDecimal(received, rate))}</span>
        )}
      </DescriptionItem>
      {owed != null && (
        <DescriptionItem label="Still owed" numeric>
          <span className="font-medium text-caution-text">{crypto(owed)}</span>
          {rate != null && <span className="text-muted-foreground"> · {formatEurComputed(multiplyDecimal(owed, rate))}</span>}
        </DescriptionItem>
      )}
      <DescriptionItem label="Rate" numeric>
        {rate != null ? `${formatEur(rate)} per ${invoice.currency}` : MISSING}
      </DescriptionItem>
      <DescriptionItem label={invoice.status === "paid_partial" ? "Last payment" : "Paid"}>
        <DateTime iso={payment.paid_at} />
      </DescriptionItem>
      <DescriptionItem label="Confirmations" numeric>
        {confirmationsText(payment.confirmations, payment.confirmations_required)}
      </DescriptionItem>
    </DescriptionList>
  );
}

/** "3 of 6" while confirming; once enough, the count and that it is confirmed. */
function confirmationsText(count: number | null | undefined, required: number | null | undefined): string {
  if (count == null) return MISSING;
  if (required == null) return formatCount(count);
  return count >= required ? `${formatCount(count)} (confirmed, ${required} required)` : `${count} of ${required}`;
}

/** The blockchain transactions: the hash (a link to the explorer when there is one) and what each carried. */
export function InvoiceTransactions({ invoice }: Props) {
  const transactions = invoice.payment?.transactions ?? [];
  if (transactions.length === 0) return <p className="text-sm text-muted-foreground">No transactions seen for this invoice.</p>;
  return (
    <ul className="divide-y divide-border">
      {transactions.map((tx, i) => (
        <li key={`${i}-${tx.tx_hash}`} className="flex flex-col gap-1 py-3 text-sm first:pt-0 last:pb-0">
          {/* The hash is a block of its own beside the copy button, so wrapped text never runs under it. */}
          <span className="flex items-start gap-1 font-mono text-xs">
            {tx.explorer_url ? (
              <a href={tx.explorer_url} target="_blank" rel="noreferrer" className="block min-w-0 break-all text-link hover:underline">
                {tx.tx_hash ?? "View in explorer"}
              </a>
            ) : (
              <span className="block min-w-0 break-all">{tx.tx_hash ?? MISSING}</span>
            )}
            {tx.tx_hash && <CopyButton value={tx.tx_hash} label="Copy transaction hash" />}
          </span>
          <span className="text-muted-foreground tabular-nums">
            {formatCrypto(tx.amount)} {invoice.currency} · {tx.confirmations != null ? formatCount(tx.confirmations) : MISSING}{" "}
            confirmations
            {tx.block_height != null ? ` · block ${formatCount(tx.block_height)}` : ""} · <DateTime iso={tx.seen_at} />
          </span>
        </li>
      ))}
    </ul>
  );
}
