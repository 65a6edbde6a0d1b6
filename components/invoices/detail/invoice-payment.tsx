import { CopyButton } from "@/components/ui/copy-button";
import { DescriptionItem, DescriptionList } from "@/components/ui/description-list";
import { ServerDateTime as DateTime } from "@/components/ui/server-date-time";
import { awaitsPayment, compareDecimal, type Decimal, type Invoice, isZero, multiplyDecimal, subtractDecimal } from "@/lib/contract";
import { addressExplorerLink, type ExplorerLink, transactionExplorerLink } from "@/lib/contract/explorer";
import {
  cryptoDecimalsShown,
  formatCount,
  formatCrypto,
  formatCryptoAligned,
  formatEurComputed,
  formatRateEur,
  formatRateEurShort,
  MISSING,
} from "@/lib/contract/format";
import { completedShort, paidInPart } from "@/lib/contract/received";

/** Amounts show every digit the provider sent (lib/contract/format.ts), whatever the currency's decimals. */
type Props = { invoice: Invoice };

/** Where and how much to pay, what came in, and — while a payment is still expected — what is still owed. */
export function InvoicePayment({ invoice }: Props) {
  const payment = invoice.payment;
  if (!payment) {
    return (
      <p className="text-sm text-muted-foreground">No payment details: this invoice has no payment address (archived records have none).</p>
    );
  }
  const crypto = (amount: Decimal | null | undefined) => (amount != null ? `${formatCrypto(amount)} ${invoice.currency ?? ""}` : MISSING);
  const { amount_due: due, amount_received: received, rate } = payment;
  // Decimal arithmetic: what is owed is exact; only its EUR worth at the rate is rounded, and marked.
  const addressLink = addressExplorerLink(payment.address, invoice.currency, payment.network);
  const owed =
    awaitsPayment(invoice.status) && due != null && received != null && compareDecimal(received, due) < 0
      ? subtractDecimal(due, received)
      : null;
  const neverReceived = completedShort(invoice);
  return (
    <DescriptionList>
      <DescriptionItem label="Network">{payment.network ?? MISSING}</DescriptionItem>
      <DescriptionItem label="Address">
        {payment.address ? (
          <span className="flex items-start gap-1 font-mono text-xs">
            <span className="min-w-0 break-all">{payment.address}</span>
            <CopyButton value={payment.address} label="Copy address" />
            {addressLink && <ExplorerIconLink link={addressLink} what="address" />}
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
      {/* Completed with less than was due, past the allowed error (so marked by a person): what never arrived stays in view. */}
      {neverReceived != null && (
        <DescriptionItem label="Never received" numeric>
          <span className="font-medium text-caution-text">{crypto(neverReceived)}</span>
          {rate != null && <span className="text-muted-foreground"> · {formatEurComputed(multiplyDecimal(neverReceived, rate))}</span>}
          <span className="block text-xs text-muted-foreground">Marked completed without it.</span>
        </DescriptionItem>
      )}
      <DescriptionItem label="Rate" numeric>
        {/* To the cent, as rates are read; every digit the provider sent on hover. */}
        {rate != null ? (
          <span title={`${formatRateEur(rate)} per ${invoice.currency}`}>{`${formatRateEurShort(rate)} per ${invoice.currency}`}</span>
        ) : (
          MISSING
        )}
      </DescriptionItem>
      {/* A part-paid invoice, also once cancelled or expired, says its last payment; a completed one was paid. */}
      <DescriptionItem
        label={invoice.status === "paid_partial" || (invoice.status !== "completed" && paidInPart(payment)) ? "Last payment" : "Paid"}
      >
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

/**
 * The blockchain transactions: the hash (a link to the provider's explorer page, else to a known public explorer
 * for the network) and what each carried. The amounts stand in a column of their own, right-aligned and padded
 * to the most decimals any of them shows, so their decimal points line up (a subgrid shared by the rows).
 */
export function InvoiceTransactions({ invoice }: Props) {
  const transactions = invoice.payment?.transactions ?? [];
  if (transactions.length === 0) return <p className="text-sm text-muted-foreground">No transactions seen for this invoice.</p>;
  const decimals = Math.max(...transactions.map((tx) => cryptoDecimalsShown(tx.amount)));
  return (
    <ul className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 divide-y divide-border" aria-label="Transactions">
      {transactions.map((tx, i) => {
        const link = tx.explorer_url
          ? providerExplorerLink(tx.explorer_url)
          : transactionExplorerLink(tx.tx_hash, invoice.currency, invoice.payment?.network);
        return (
          <li key={`${i}-${tx.tx_hash}`} className="col-span-2 grid grid-cols-subgrid gap-y-1 py-3 text-sm first:pt-0 last:pb-0">
            {/* The hash is a block of its own beside the copy button, so wrapped text never runs under it. */}
            <span className="col-span-2 flex items-start gap-1 font-mono text-xs">
              {link ? (
                <a href={link.href} target="_blank" rel="noopener noreferrer" className="block min-w-0 break-all text-link hover:underline">
                  {tx.tx_hash ?? "View in explorer"}
                  <span className="sr-only"> (transaction on {link.explorer}, opens in a new tab)</span>
                </a>
              ) : (
                <span className="block min-w-0 break-all">{tx.tx_hash ?? MISSING}</span>
              )}
              {tx.tx_hash && <CopyButton value={tx.tx_hash} label="Copy transaction hash" />}
            </span>
            <span className="text-right whitespace-pre tabular-nums" data-testid="transaction-amount">
              {formatCryptoAligned(tx.amount, decimals)} {invoice.currency}
            </span>
            <span className="text-muted-foreground tabular-nums">
              {tx.confirmations != null ? formatCount(tx.confirmations) : MISSING}{" "}
              {tx.confirmations === 1 ? "confirmation" : "confirmations"}
              {tx.block_height != null ? ` · block ${formatCount(tx.block_height)}` : ""} · <DateTime iso={tx.seen_at} />
            </span>
          </li>
        );
      })}
    </ul>
  );
}

/** The provider's own explorer address for a transaction, named by its host; none when it is not a web address. */
function providerExplorerLink(href: string): ExplorerLink | null {
  try {
    const url = new URL(href);
    return url.protocol === "https:" || url.protocol === "http:" ? { href: url.href, explorer: url.host } : null;
  } catch {
    return null;
  }
}

/** A small "look it up in public" link beside a value, named for where it goes. */
function ExplorerIconLink({ link, what }: { link: ExplorerLink; what: string }) {
  const name = `View ${what} on ${link.explorer} (opens in a new tab)`;
  return (
    <a
      href={link.href}
      target="_blank"
      rel="noopener noreferrer"
      title={name}
      className="inline-grid size-6 shrink-0 place-items-center rounded text-muted-foreground hover:bg-accent hover:text-accent-foreground"
    >
      <svg aria-hidden viewBox="0 0 16 16" className="size-3.5" fill="none" stroke="currentColor" strokeWidth="1.5">
        <path d="M9 2.5h4.5V7M13.5 2.5 7.5 8.5M11.5 9.5v3a1 1 0 0 1-1 1h-7a1 1 0 0 1-1-1v-7a1 1 0 0 1 1-1h3" />
      </svg>
      <span className="sr-only">{name}</span>
    </a>
  );
}
