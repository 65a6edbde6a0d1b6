/*
 * Numbers and dates for people. A fixed locale keeps server and browser output identical (no hydration
 * mismatch); so does an explicit time zone: never the runtime's own, always the display zone that
 * lib/time-zone.ts decides (components/ui/date-time.tsx, useTimeZone()).
 */
const LOCALE = "en-GB";

const eur = new Intl.NumberFormat(LOCALE, { style: "currency", currency: "EUR" });
const integer = new Intl.NumberFormat(LOCALE);

export function formatEur(amount: number): string {
  return eur.format(amount);
}

/** "—" stands for a value the provider did not give (or gave in a form the console cannot read). */
export const MISSING = "—";

export function formatFiat(amount: number | null, currency: string): string {
  if (amount === null) return MISSING;
  if (currency === "EUR") return formatEur(amount);
  try {
    return new Intl.NumberFormat(LOCALE, { style: "currency", currency }).format(amount);
  } catch {
    return `${integer.format(amount)} ${currency}`;
  }
}

/** Crypto amounts: at least two decimals, at most the currency's own (eight unless told), no float noise. */
export function formatCrypto(amount: number | null, maxDecimals = 8): string {
  if (amount === null) return MISSING;
  return new Intl.NumberFormat(LOCALE, { minimumFractionDigits: 2, maximumFractionDigits: Math.min(Math.max(maxDecimals, 2), 20) }).format(amount);
}

const FIGURE_SPACE = "\u2007";

/**
 * A crypto amount padded on the right with figure spaces to eight decimal places, so that in a column of
 * tabular figures the decimal points line up whatever each amount's precision.
 */
export function formatCryptoAligned(amount: number | null): string {
  if (amount === null) return MISSING;
  const text = formatCrypto(amount);
  const decimals = text.length - text.indexOf(".") - 1;
  return text + FIGURE_SPACE.repeat(Math.max(0, 8 - decimals));
}

export function formatCount(n: number): string {
  return integer.format(n);
}

const dateTimeOptions: Intl.DateTimeFormatOptions = {
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  // "5 Jan 2026, 10:00 CET": a time without its zone is ambiguous between the viewer, UTC and the provider.
  timeZoneName: "short",
};

/**
 * A calendar day in the table's format, "5 Jan 2026": a day as a person typed or picked it (a URL's
 * `from=2026-01-05`, held as its UTC midnight), not an instant; which instants it covers is the zone's affair
 * (lib/time-zone.ts).
 */
export function formatCalendarDay(date: Date): string {
  return new Intl.DateTimeFormat(LOCALE, { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" }).format(date);
}

/** The day an instant falls on in `timeZone`, "5 Jan 2026". */
export function formatDayIn(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat(LOCALE, { day: "numeric", month: "short", year: "numeric", timeZone }).format(new Date(iso));
}

/** "5 Jan 2026, 11:00 CET" in `timeZone`: the display zone (useTimeZone()), never left to the runtime. */
export function formatDateTime(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat(LOCALE, { ...dateTimeOptions, timeZone }).format(new Date(iso));
}

export function formatUtc(iso: string): string {
  return new Intl.DateTimeFormat(LOCALE, { ...dateTimeOptions, second: "2-digit", timeZone: "UTC" }).format(new Date(iso));
}

/**
 * An id shortened for display only (links and copies carry it in full): a long one keeps its last eight
 * characters, which tell ids apart at a glance whatever the provider's format ("invoice_0190…" or a UUID).
 */
export function shortInvoiceId(id: string): string {
  return id.length > 12 ? `…${id.slice(-8)}` : id;
}


/**
 * A rate in EUR per unit with the precision its size deserves: cents for anything worth a euro or more
 * (4 decimals between 1 and 100, where cents hide real moves), six significant digits below a euro.
 */
export function formatRateEur(rate: number): string {
  const digits = rate >= 100 ? { minimumFractionDigits: 2, maximumFractionDigits: 2 } : rate >= 1 ? { minimumFractionDigits: 2, maximumFractionDigits: 4 } : { maximumSignificantDigits: 6, minimumSignificantDigits: 4 };
  return new Intl.NumberFormat(LOCALE, { style: "currency", currency: "EUR", ...digits }).format(rate);
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
