/*
 * Numbers for people (dates: lib/contract/format-date.ts). A fixed locale keeps server and browser output
 * identical (no hydration mismatch).
 */
import { LOCALE } from "@/lib/contract/format-date";
import { compareDecimal, type Decimal, formatDecimal, formatDecimalParts, roundDecimal, roundSignificant } from "@/lib/contract/money";

const integer = new Intl.NumberFormat(LOCALE);

/*
 * Amounts are decimal strings and are formatted from the string (lib/contract/money.ts), never
 * through a float: grouped with `,`, at least the currency's own decimals (2 for EUR), and every further
 * significant digit the provider sent — nothing it sent is ever rounded away, so 1 wei is
 * "0.000000000000000001 ETH" and €12.345 stays €12.345. Only a figure the console computes (crypto at a
 * rate) is rounded, to the currency's decimals, and then says so: "≈ €392.61", or "< €0.01" for a non-zero
 * figure that would show as zero.
 */

/** "—" stands for a value the provider did not give (or gave in a form the console cannot read). */
export const MISSING = "—";

type CurrencyStyle = { prefix: string; suffix: string; decimals: number };
const currencyStyles = new Map<string, CurrencyStyle | null>();

/** How en-GB writes a currency around its digits ("€" before, 2 decimals); null for a code Intl does not know. */
function currencyStyle(currency: string): CurrencyStyle | null {
  let style = currencyStyles.get(currency);
  if (style === undefined) {
    try {
      const format = new Intl.NumberFormat(LOCALE, { style: "currency", currency });
      const parts = format.formatToParts(1);
      const first = parts.findIndex((p) => p.type === "integer");
      const last = parts.findLastIndex((p) => p.type === "integer" || p.type === "decimal" || p.type === "fraction");
      style = {
        prefix: parts
          .slice(0, first)
          .map((p) => p.value)
          .join(""),
        suffix: parts
          .slice(last + 1)
          .map((p) => p.value)
          .join(""),
        decimals: format.resolvedOptions().maximumFractionDigits ?? 2,
      };
    } catch {
      style = null;
    }
    currencyStyles.set(currency, style);
  }
  return style;
}

function formatMoney(amount: Decimal, currency: string, computed: boolean): string {
  const style = currencyStyle(currency);
  const decimals = style?.decimals ?? 2;
  const { marker, negative, digits } = formatDecimalParts(amount, {
    minDecimals: decimals,
    ...(computed ? { maxDecimals: decimals } : {}),
  });
  const sign = negative ? "-" : "";
  return style ? `${marker}${sign}${style.prefix}${digits}${style.suffix}` : `${marker}${sign}${digits} ${currency}`;
}

/** An amount in EUR the provider sent, with all its digits: "€100,000,000,000,000.01". */
export function formatEur(amount: Decimal): string {
  return formatMoney(amount, "EUR", false);
}

/** A EUR figure the console computed (an amount at a rate): cents, marked "≈" when rounded ("≈ €392.61"). */
export function formatEurComputed(amount: Decimal): string {
  return formatMoney(amount, "EUR", true);
}

export function formatFiat(amount: Decimal | null, currency: string): string {
  if (amount === null) return MISSING;
  return formatMoney(amount, currency, false);
}

/**
 * Crypto amounts: at least two decimals and every significant digit the provider sent (up to 18 for ETH and
 * beyond), never rounded: "0.000000000000000001", "0.0783", "25.17".
 */
export function formatCrypto(amount: Decimal | null): string {
  if (amount === null) return MISSING;
  return formatDecimal(amount, { minDecimals: 2 });
}

/** A crypto figure the console computed (what is still owed…), to the currency's decimals, marked when rounded. */
export function formatCryptoComputed(amount: Decimal, decimals: number): string {
  return formatDecimal(amount, { minDecimals: Math.min(2, decimals), maxDecimals: decimals });
}

const FIGURE_SPACE = "\u2007";

/** How many decimals `formatCrypto` shows for an amount. */
export function cryptoDecimalsShown(amount: Decimal | null): number {
  if (amount === null) return 0;
  const text = formatCrypto(amount);
  const point = text.indexOf(".");
  return point === -1 ? 0 : text.length - point - 1;
}

/**
 * A crypto amount padded on the right with figure spaces to `alignTo` decimal places (the most any amount in
 * its column shows), so that in a column of tabular figures the decimal points line up whatever each amount's
 * precision.
 */
export function formatCryptoAligned(amount: Decimal | null, alignTo = 8): string {
  if (amount === null) return MISSING;
  const text = formatCrypto(amount);
  return text + FIGURE_SPACE.repeat(Math.max(0, alignTo - cryptoDecimalsShown(amount)));
}

export function formatCount(n: number): string {
  return integer.format(n);
}

/**
 * An id shortened for display only (links and copies carry it in full): a long one keeps its last eight
 * characters, which tell ids apart at a glance whatever the provider's format ("invoice_0190…" or a UUID).
 */
export function shortInvoiceId(id: string): string {
  return id.length > 12 ? `…${id.slice(-8)}` : id;
}

/** A rate in EUR per unit as the provider gave it: every digit, at least cents ("€61,234.50", "€0.000012345"). */
export function formatRateEur(rate: Decimal): string {
  return formatEur(rate);
}

/**
 * A rate as people read it at a glance: to the cent from €1 up ("€60,698.16"), four significant figures below
 * ("€0.9198", "€0.00001235"). The exact figure stays one step away (its title, the converter).
 */
export function formatRateEurShort(rate: Decimal): string {
  const rounded = compareDecimal(rate, "1") >= 0 || compareDecimal(rate, "-1") <= 0 ? roundDecimal(rate, 2) : roundSignificant(rate, 4);
  return formatEur(rounded);
}

/** A signed percentage with one decimal and a thin space before %: "+4.1 %", "−0.3 %", "0.0 %". */
export function formatPercentChange(percent: number): string {
  const rounded = Math.round(percent * 10) / 10;
  const sign = rounded > 0 ? "+" : rounded < 0 ? "\u2212" : "";
  return `${sign}${Math.abs(rounded).toFixed(1)}\u202f%`;
}

/** "12 s ago", "3 min ago", "2 h ago". */
export function formatAge(seconds: number): string {
  if (seconds < 60) return `${Math.max(0, Math.floor(seconds))} s ago`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  return `${Math.floor(seconds / 3600)} h ago`;
}
