import { describe, expect, it } from "vitest";
import {
  completedShort,
  hasReceivedCrypto,
  nothingReceivedSentence,
  paidInPart,
  type ReceivedFacts,
  receivedAmount,
  receivedFacts,
  receivedSentence,
  receivedSummary,
  shortfallSentence,
} from "./received";

type Patch = Partial<Omit<ReceivedFacts, "payment">> & { payment?: Partial<NonNullable<ReceivedFacts["payment"]>> | null };

const invoice = ({ payment, ...patch }: Patch = {}): ReceivedFacts => ({
  status: "new",
  currency: "BTC",
  fiat_amount: "100.00",
  fiat_currency: "EUR",
  crypto_amount: "0.00163306",
  ...patch,
  payment: payment === null ? null : { amount_due: "0.00163306", amount_received: "0", rate: "61234.50", transactions: [], ...payment },
});

const REFUNDS = "Cancelling does not send it back: refunds are arranged outside the console.";

const newOne = invoice({ payment: { amount_received: "0.00" } });
const partlyPaid = invoice({
  status: "paid_partial",
  payment: { amount_received: "0.00150000", transactions: [{ amount: "0.00150000" }] },
});
const ethPending = invoice({
  status: "pending",
  currency: "ETH",
  crypto_amount: "0.42",
  payment: { amount_received: "0.42", rate: "3180.10", transactions: [{ amount: "0.42" }] },
});

describe("hasReceivedCrypto", () => {
  it("a New invoice with amount_received 0 or 0.00, or no payment at all, has received nothing", () => {
    expect(hasReceivedCrypto(invoice({ payment: { amount_received: "0" } }))).toBe(false);
    expect(hasReceivedCrypto(newOne)).toBe(false);
    expect(hasReceivedCrypto(invoice({ payment: { amount_received: null } }))).toBe(false);
    expect(hasReceivedCrypto(invoice({ payment: null }))).toBe(false);
    // A transaction without an amount, or of zero, says nothing came in.
    expect(hasReceivedCrypto(invoice({ payment: { transactions: [{ amount: null }, { amount: "0.000" }] } }))).toBe(false);
  });

  it("an amount received, a transaction that carried one, or a partly paid status", () => {
    expect(hasReceivedCrypto(partlyPaid)).toBe(true);
    expect(hasReceivedCrypto(invoice({ status: "pending", payment: { amount_received: "0", transactions: [{ amount: "0.001" }] } }))).toBe(
      true,
    );
    expect(hasReceivedCrypto(invoice({ status: "paid_partial", payment: { amount_received: null } }))).toBe(true);
  });
});

describe("receivedAmount", () => {
  it("amount_received as sent, else the transactions' sum keeping their digits", () => {
    expect(receivedAmount(partlyPaid)).toBe("0.00150000");
    expect(
      receivedAmount(invoice({ payment: { amount_received: null, transactions: [{ amount: "0.00100000" }, { amount: "0.0005" }] } })),
    ).toBe("0.00150000");
    expect(receivedAmount(newOne)).toBeNull();
  });
});

describe("receivedSummary", () => {
  it("sums per currency exactly, keeping the provider's digits, and the EUR worth at each rate to the cent", () => {
    const second = invoice({ status: "paid_partial", payment: { amount_received: "0.0005", rate: "60000" } });
    expect(receivedSummary([newOne, partlyPaid, ethPending, second])).toEqual({
      total: 4,
      withCrypto: 3,
      amountUnknown: 0,
      byCurrency: [
        { currency: "BTC", amount: "0.00200000" },
        { currency: "ETH", amount: "0.42" },
      ],
      // 0.0015 × 61234.50 + 0.42 × 3180.10 + 0.0005 × 60000 = 91.85175 + 1335.642 + 30 = 1457.49375
      eur: "1457.49",
    });
  });

  it("without a rate, the worth is the invoice's own EUR price for its crypto amount", () => {
    const noRate = invoice({ status: "paid_partial", crypto_amount: "0.002", payment: { amount_received: "0.001", rate: null } });
    expect(receivedSummary([noRate]).eur).toBe("50.00");
  });

  it("no rate and a price in another currency: the worth is not known", () => {
    const usd = invoice({ status: "paid_partial", fiat_currency: "USD", payment: { amount_received: "0.001", rate: null } });
    expect(receivedSummary([usd, partlyPaid])).toMatchObject({ withCrypto: 2, eur: null });
  });

  it("nothing received: no amounts", () => {
    expect(receivedSummary([newOne, newOne])).toEqual({ total: 2, withCrypto: 0, amountUnknown: 0, byCurrency: [], eur: "0.00" });
  });
});

describe("receivedSentence", () => {
  const sentence = (...invoices: ReceivedFacts[]) => receivedSentence(receivedSummary(invoices));

  it("says nothing at all when nothing was received", () => {
    expect(sentence(newOne)).toBeNull();
    expect(sentence(invoice({ payment: { amount_received: "0" } }))).toBeNull();
    expect(sentence(newOne, invoice({ status: "expired", payment: { amount_received: "0" } }))).toBeNull();
    expect(sentence()).toBeNull();
  });

  it("one invoice: the amount and its worth", () => {
    expect(sentence(partlyPaid)).toBe(`0.0015 BTC (≈ €91.85) has already been received for this invoice. ${REFUNDS}`);
    expect(sentence(ethPending)).toBe(`0.42 ETH (≈ €1,335.64) has already been received for this invoice. ${REFUNDS}`);
  });

  it("before another change than a cancel, what was received alone: nothing about refunds", () => {
    expect(receivedSentence(receivedSummary([partlyPaid]), { cancelling: false })).toBe(
      "0.0015 BTC (≈ €91.85) has already been received for this invoice.",
    );
  });

  it("one invoice without a known worth: the amount alone", () => {
    const usd = invoice({ status: "paid_partial", fiat_currency: "USD", payment: { amount_received: "0.001", rate: null } });
    expect(sentence(usd)).toBe(`0.001 BTC has already been received for this invoice. ${REFUNDS}`);
  });

  it("a worth below a cent", () => {
    const dust = invoice({ status: "paid_partial", payment: { amount_received: "0.00000001" } });
    expect(sentence(dust)).toBe(`0.00000001 BTC (< €0.01) has already been received for this invoice. ${REFUNDS}`);
  });

  it("a partly paid invoice that does not say how much", () => {
    expect(sentence(invoice({ status: "paid_partial", payment: { amount_received: null } }))).toBe(
      `Crypto has already been received for this invoice; the provider does not say how much. ${REFUNDS}`,
    );
  });

  it("several invoices in several currencies", () => {
    expect(sentence(newOne, partlyPaid, ethPending, newOne)).toBe(
      `2 of these 4 have received crypto: 0.0015 BTC and 0.42 ETH, ≈ €1,427.49. ${REFUNDS}`,
    );
    expect(sentence(newOne, partlyPaid)).toBe(`1 of these 2 has received crypto: 0.0015 BTC, ≈ €91.85. ${REFUNDS}`);
    expect(sentence(partlyPaid, ethPending)).toBe(`Both have received crypto: 0.0015 BTC and 0.42 ETH, ≈ €1,427.49. ${REFUNDS}`);
  });

  it("several, one without a rate: the amounts without a worth", () => {
    const usd = invoice({ status: "paid_partial", fiat_currency: "USD", payment: { amount_received: "0.001", rate: null } });
    expect(sentence(newOne, usd, ethPending)).toBe(`2 of these 3 have received crypto: 0.001 BTC and 0.42 ETH. ${REFUNDS}`);
  });

  it("several, one partly paid without an amount", () => {
    const unstated = invoice({ status: "paid_partial", payment: { amount_received: null } });
    expect(sentence(unstated, ethPending, newOne)).toBe(
      `2 of these 3 have received crypto: at least 0.42 ETH (the provider does not say how much 1 of them received). ${REFUNDS}`,
    );
    expect(sentence(unstated, unstated, unstated)).toBe(`All 3 have received crypto; the provider does not say how much. ${REFUNDS}`);
  });
});

describe("receivedFacts", () => {
  it("keeps only what the summary reads", () => {
    const full = {
      ...partlyPaid,
      invoice_id: "invoice_1",
      payment: { ...partlyPaid.payment!, address: "bc1q", transactions: [{ amount: "0.0015", tx_hash: "ab" }] },
    };
    expect(receivedFacts(full)).toEqual({
      status: "paid_partial",
      currency: "BTC",
      fiat_amount: "100.00",
      fiat_currency: "EUR",
      crypto_amount: "0.00163306",
      payment: { amount_due: "0.00163306", amount_received: "0.00150000", rate: "61234.50", transactions: [{ amount: "0.0015" }] },
    });
  });
});

describe("paidInPart", () => {
  it("is something received and less than due, whatever the status", () => {
    expect(paidInPart({ amount_due: "0.02", amount_received: "0.0014" })).toBe(true);
    expect(paidInPart({ amount_due: "0.02", amount_received: "0.02" })).toBe(false);
    expect(paidInPart({ amount_due: "0.02", amount_received: "0.03" })).toBe(false);
    expect(paidInPart({ amount_due: "0.02", amount_received: "0" })).toBe(false);
    expect(paidInPart({ amount_due: null, amount_received: "0.0014" })).toBe(false);
    expect(paidInPart(null)).toBe(false);
  });
});

describe("shortfallSentence", () => {
  it("says what a part payment left owing, exactly, with its worth at the invoice's rate; nothing when nothing is short", () => {
    expect(shortfallSentence(partlyPaid)).toBe("0.00013306 BTC (≈ €8.15) of the 0.00163306 BTC due has not been received.");
    expect(shortfallSentence(invoice({ payment: { amount_received: "0.00150000", rate: null } }))).toBe(
      "0.00013306 BTC of the 0.00163306 BTC due has not been received.",
    );
    expect(shortfallSentence(invoice({ payment: { amount_received: "0.00163306" } }))).toBeNull();
    expect(shortfallSentence(newOne)).toBeNull();
    expect(shortfallSentence(invoice({ payment: null }))).toBeNull();
  });
});

describe("nothingReceivedSentence", () => {
  it("says all of what was due is missing, with its worth at the invoice's rate; nothing once crypto came in", () => {
    expect(nothingReceivedSentence(newOne)).toBe("Nothing of the 0.00163306 BTC (≈ €100.00) due has been received.");
    // Without a rate, the invoice's own EUR price says its worth.
    expect(nothingReceivedSentence(invoice({ payment: null }))).toBe("Nothing of the 0.00163306 BTC (€100.00) due has been received.");
    expect(nothingReceivedSentence(invoice({ payment: null, fiat_currency: "USD" }))).toBe(
      "Nothing of the 0.00163306 BTC due has been received.",
    );
    expect(nothingReceivedSentence(invoice({ payment: null, crypto_amount: null }))).toBe("Nothing has been received for this invoice.");
    expect(nothingReceivedSentence(partlyPaid)).toBeNull();
    // Partly paid without saying how much: something came in.
    expect(nothingReceivedSentence(invoice({ status: "paid_partial", payment: { amount_received: null } }))).toBeNull();
    expect(nothingReceivedSentence(invoice({ payment: { amount_received: "0", transactions: [{ amount: "0.0001" }] } }))).toBeNull();
  });
});

describe("completedShort", () => {
  const completed = (received: string, allowed: number | null) => ({
    status: "completed",
    allowed_error_percent: allowed,
    payment: { amount_due: "0.02000000", amount_received: received },
  });

  it("is what a completed invoice never received past its allowed error; within it, the provider accepted it as paid", () => {
    expect(completedShort(completed("0.01", 1))).toBe("0.01");
    expect(completedShort(completed("0.0198", 1))).toBeNull();
    expect(completedShort(completed("0.01979", 1))).toBe("0.00021");
    expect(completedShort(completed("0.0199", null))).toBe("0.0001");
    expect(completedShort(completed("0.02", 0))).toBeNull();
    expect(completedShort({ ...completed("0.01", 1), status: "cancelled" })).toBeNull();
  });
});
