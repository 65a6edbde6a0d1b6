import type { Invoice, PricedIn } from "@/lib/contract";
import { formatRateEur, formatRateEurShort } from "@/lib/contract/format";
import { formatDateTime } from "@/lib/contract/format-date";

/*
 * How an archived invoice was priced, as the invoice page says it beside its amounts (docs/user-guide.md, "Recording
 * archived invoices in the console"): which amount was given and the rate, of which moment, the other was
 * derived at — "Priced in ETH; EUR derived at 1 ETH = €2,310.42 on 1 Mar 2025, 15:03 CET". Only when the
 * provider says both (`priced_in` and `payment.rate`); nothing is inferred.
 */

/** `priced_in` as the provider sent it (read by the upstream normaliser), or null when it does not say. */
export function pricedIn(invoice: Pick<Invoice, "priced_in">): PricedIn | null {
  return invoice.priced_in;
}

type Priced = Pick<Invoice, "priced_in" | "payment" | "currency" | "fiat_currency" | "created_at">;

export function pricedInNote(invoice: Priced, timeZone: string): string | null {
  const parts = pricedInParts(invoice, timeZone);
  return parts && (parts.when ? `${parts.lead} on ${parts.when}` : parts.lead);
}

/** The note in two parts, so a page can keep the moment ("1 Mar 2025, 15:03 CET") on one line. */
export function pricedInParts(invoice: Priced, timeZone: string): { lead: string; when: string | null; exactRate: string } | null {
  const given = pricedIn(invoice);
  const rate = invoice.payment?.rate;
  const crypto = invoice.currency;
  if (!given || !rate || !crypto) return null;
  const fiat = invoice.fiat_currency;
  // payment.rate is EUR per unit; another fiat currency would need another formatter and is not guessed at.
  if (fiat !== "EUR") return null;
  const [from, to] = given === "crypto" ? [crypto, fiat] : [fiat, crypto];
  return {
    // Read to the cent, as rates are; every digit it was derived at is the note's title.
    lead: `Priced in ${from}; ${to} derived at 1 ${crypto} = ${formatRateEurShort(rate)}`,
    exactRate: `1 ${crypto} = ${formatRateEur(rate)}`,
    when: invoice.created_at ? formatDateTime(invoice.created_at, timeZone) : null,
  };
}
