import { formatCount, formatCrypto, formatEur, formatEurComputed } from "./format";
import type { Invoice, Payment, Transaction } from "./invoice";
import { addDecimals, compareDecimal, type Decimal, divideDecimal, isZero, multiplyDecimal, roundDecimal, subtractDecimal } from "./money";

/*
 * What crypto invoices have already received on chain, said before they are cancelled: cancelling does not
 * send it back. Said only when something was received, so a New invoice says nothing about refunds.
 */

/** The parts of an invoice these functions read: small enough to travel with a list row to the browser. */
export type ReceivedFacts = Pick<Invoice, "status" | "currency" | "fiat_amount" | "fiat_currency" | "crypto_amount"> & {
  payment: (Pick<Payment, "amount_due" | "amount_received" | "rate"> & { transactions: Pick<Transaction, "amount">[] }) | null;
};

/** An invoice cut down to its ReceivedFacts (a list row sent to the browser carries no more). */
export function receivedFacts(invoice: ReceivedFacts): ReceivedFacts {
  const { status, currency, fiat_amount, fiat_currency, crypto_amount, payment } = invoice;
  return {
    status,
    currency,
    fiat_amount,
    fiat_currency,
    crypto_amount,
    payment: payment && {
      amount_due: payment.amount_due,
      amount_received: payment.amount_received,
      rate: payment.rate,
      transactions: payment.transactions.map((tx) => ({ amount: tx.amount })),
    },
  };
}

/**
 * Something came in, and less than was due: a part payment, whatever the status became afterwards (a part-paid
 * invoice cancelled or expired was still not paid).
 */
export function paidInPart(payment: Pick<Payment, "amount_due" | "amount_received"> | null): boolean {
  const due = payment?.amount_due;
  const received = payment?.amount_received;
  return due != null && received != null && !isZero(received) && compareDecimal(received, due) < 0;
}

/** What a part payment left owing, exactly (due less received); null unless something came in and less than was due. */
export function shortfall(payment: Pick<Payment, "amount_due" | "amount_received"> | null): Decimal | null {
  return payment && paidInPart(payment) ? subtractDecimal(payment.amount_due!, payment.amount_received!) : null;
}

/**
 * What a completed invoice never received beyond the error its payment was allowed (`allowed_error_percent` of
 * what was due, which the provider itself accepts as paid): a shortfall someone marked completed. Null otherwise.
 */
export function completedShort(
  invoice: Pick<Invoice, "status" | "allowed_error_percent"> & { payment: Pick<Payment, "amount_due" | "amount_received"> | null },
): Decimal | null {
  const owed = invoice.status === "completed" ? shortfall(invoice.payment) : null;
  if (owed === null) return null;
  // A percent (0 to 100), not an amount: written out in fixed digits for the decimal product.
  const allowed = multiplyDecimal(invoice.payment!.amount_due!, (invoice.allowed_error_percent ?? 0).toFixed(6));
  return compareDecimal(multiplyDecimal(owed, "100"), allowed) > 0 ? owed : null;
}

/**
 * Before a part-paid invoice is called paid (completed), what never arrived: "0.00082812 BTC (≈ €52.21) of the
 * 0.00125279 BTC due has not been received." Its worth at the invoice's own rate; null when nothing is short.
 */
export function shortfallSentence(invoice: Pick<ReceivedFacts, "currency" | "payment">): string | null {
  const payment = invoice.payment;
  const owed = shortfall(payment);
  if (!payment || owed === null) return null;
  const code = invoice.currency ?? "";
  const worth = isPositive(payment.rate) ? ` (${formatEurComputed(multiplyDecimal(owed, payment.rate))})` : "";
  return `${`${formatCrypto(owed)} ${code}`.trim()}${worth} of the ${`${formatCrypto(payment.amount_due!)} ${code}`.trim()} due has not been received.`;
}

/**
 * Before an invoice that received nothing is called paid (completed): "Nothing of the 0.00163306 BTC (≈ €100.00)
 * due has been received." Null when something came in (a part payment says what is short, shortfallSentence).
 */
export function nothingReceivedSentence(invoice: ReceivedFacts): string | null {
  if (hasReceivedCrypto(invoice)) return null;
  const due = invoice.payment?.amount_due ?? invoice.crypto_amount;
  if (due == null) return "Nothing has been received for this invoice.";
  const eur = eurWorth(invoice, due);
  const worth = eur === null ? "" : ` (${formatEurComputed(eur)})`;
  return `Nothing of the ${`${formatCrypto(due)} ${invoice.currency ?? ""}`.trim()}${worth} due has been received.`;
}

export type ReceivedSummary = {
  /** How many invoices were looked at. */
  total: number;
  /** How many of them have received crypto. */
  withCrypto: number;
  /** Of those, how many received an amount the provider does not state (a partly paid invoice without one). */
  amountUnknown: number;
  /** The amounts received, per currency (by code), each an exact sum keeping the digits the provider sent. */
  byCurrency: { currency: string; amount: Decimal }[];
  /** Their worth in EUR at each invoice's own rate, rounded to cents; null when some part's worth is not known. */
  eur: Decimal | null;
};

const isPositive = (d: Decimal | null | undefined): d is Decimal => d != null && compareDecimal(d, "0") > 0;
const places = (d: Decimal) => d.split(".")[1]?.length ?? 0;

/** A sum that keeps as many decimals as its most precise part: "0.00150000" + "0.0005" is "0.00200000". */
function sumKeepingDigits(values: Decimal[]): Decimal {
  return roundDecimal(addDecimals(...values), Math.max(0, ...values.map(places)));
}

/**
 * The crypto an invoice has received: `amount_received` when positive, else what its transactions carried
 * (a payment seen but not yet counted); null when neither says anything came in.
 */
export function receivedAmount(invoice: ReceivedFacts): Decimal | null {
  const payment = invoice.payment;
  if (!payment) return null;
  if (isPositive(payment.amount_received)) return payment.amount_received;
  const carried = payment.transactions.map((tx) => tx.amount).filter(isPositive);
  return carried.length > 0 ? sumKeepingDigits(carried) : null;
}

/** Whether an invoice has received any crypto (a partly paid one has, whether or not it says how much). */
export function hasReceivedCrypto(invoice: ReceivedFacts): boolean {
  return receivedAmount(invoice) !== null || invoice.status === "paid_partial";
}

/**
 * What `amount` of this invoice's crypto is worth in EUR, unrounded: at its rate, else at its own price when that
 * is in EUR (fiat_amount for crypto_amount); null when neither is known.
 */
function eurWorth(invoice: ReceivedFacts, amount: Decimal): Decimal | null {
  const rate = invoice.payment?.rate;
  if (isPositive(rate)) return multiplyDecimal(amount, rate);
  if (invoice.fiat_currency !== "EUR" || invoice.fiat_amount == null || !isPositive(invoice.crypto_amount)) return null;
  // Far more places than cents, so the sum is rounded once.
  return divideDecimal(multiplyDecimal(invoice.fiat_amount, amount), invoice.crypto_amount, 20);
}

export function receivedSummary(invoices: readonly ReceivedFacts[]): ReceivedSummary {
  const amounts = new Map<string, Decimal[]>();
  const worths: Decimal[] = [];
  let withCrypto = 0;
  let amountUnknown = 0;
  let worthUnknown = false;
  for (const invoice of invoices) {
    if (!hasReceivedCrypto(invoice)) continue;
    withCrypto++;
    const amount = receivedAmount(invoice);
    if (amount === null) {
      amountUnknown++;
      worthUnknown = true;
      continue;
    }
    const currency = invoice.currency ?? "";
    amounts.set(currency, [...(amounts.get(currency) ?? []), amount]);
    const worth = eurWorth(invoice, amount);
    if (worth === null) worthUnknown = true;
    else worths.push(worth);
  }
  const byCurrency = [...amounts]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([currency, values]) => ({ currency, amount: sumKeepingDigits(values) }));
  return {
    total: invoices.length,
    withCrypto,
    amountUnknown,
    byCurrency,
    eur: worthUnknown ? null : roundDecimal(addDecimals(...worths), 2),
  };
}

const REFUNDS = "Cancelling does not send it back: refunds are arranged outside the console.";

/** "A, B and C". */
function joinAnd(parts: string[]): string {
  return parts.length < 2 ? parts.join("") : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
}

/**
 * The warning before a cancel, or null when nothing was received (then nothing about refunds is said); not
 * `cancelling`, what was received alone (an approver of another change reads it).
 * One invoice: "0.0015 BTC (≈ €91.85) has already been received for this invoice. Cancelling…"; several:
 * "2 of these 4 have received crypto: 0.0015 BTC and 0.42 ETH, ≈ €1,427.49. Cancelling…".
 */
export function receivedSentence(summary: ReceivedSummary, { cancelling = true } = {}): string | null {
  // Refunds are a cancel's concern: said only before one.
  const refunds = cancelling ? ` ${REFUNDS}` : "";
  const { total, withCrypto, amountUnknown, byCurrency, eur } = summary;
  if (withCrypto === 0) return null;
  const amounts = joinAnd(byCurrency.map(({ currency, amount }) => `${formatCrypto(amount)} ${currency}`.trim()));
  // Worth at each invoice's own rate, not today's: always approximate.
  const worth = eur === null ? null : isZero(eur) ? "< €0.01" : `≈ ${formatEur(eur)}`;
  if (total === 1) {
    if (byCurrency.length === 0) return `Crypto has already been received for this invoice; the provider does not say how much.${refunds}`;
    return `${amounts}${worth ? ` (${worth})` : ""} has already been received for this invoice.${refunds}`;
  }
  const all = total === 2 ? "Both have" : `All ${formatCount(total)} have`;
  const who = withCrypto === total ? all : `${formatCount(withCrypto)} of these ${formatCount(total)} ${withCrypto === 1 ? "has" : "have"}`;
  if (byCurrency.length === 0) return `${who} received crypto; the provider does not say how much.${refunds}`;
  if (amountUnknown > 0) {
    const them = amountUnknown === 1 ? "1 of them" : `${formatCount(amountUnknown)} of them`;
    return `${who} received crypto: at least ${amounts} (the provider does not say how much ${them} received).${refunds}`;
  }
  return `${who} received crypto: ${amounts}${worth ? `, ${worth}` : ""}.${refunds}`;
}
