import Big from "big.js";

/*
 * The console's one money module (docs/operations.md, "Amounts are decimals"): an amount is a decimal, never a float. It arrives
 * from the provider as a JSON number literal kept as text (lib/console/upstream/client.ts reads every answer with
 * lossless-json) or as a numeric string, is carried everywhere as a canonical decimal string, is compared,
 * added and multiplied with decimal arithmetic (big.js) and is formatted from the string. Nothing here, nor
 * anywhere else, turns an amount into a JavaScript number — except `plotNumber`, for a chart's pixel heights
 * (lib/contract/money-float.test.ts checks lib/, components/ and app/ for any other).
 *
 * Canonical: plain notation (never an exponent), no `+`, no leading zeros before the units (`.5` → `0.5`,
 * `007` → `7`), `-0` → `0`, and the fraction's digits exactly as the provider sent them, trailing zeros
 * included (`12.50` stays `12.50`: the provider's digits are what the exports write). So two canonical strings
 * can differ in trailing zeros and still be equal: compare with `compareDecimal`, never with `===`.
 */

/** A canonical decimal string (see above). */
export type Decimal = string;

const DECIMAL = /^([+-])?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d{1,4}))?$/;
/** The longest decimal accepted, in characters: far beyond any money, short of anything abusive. */
const MAX_LENGTH = 200;

/** lossless-json's LosslessNumber, recognised by shape so this module (also used in the browser) needs no import. */
function losslessText(value: unknown): string | null {
  if (typeof value !== "object" || value === null) return null;
  const v = value as { isLosslessNumber?: unknown; value?: unknown };
  return v.isLosslessNumber === true && typeof v.value === "string" ? v.value : null;
}

/**
 * A decimal from its text — a JSON number literal or a numeric string, surrounding spaces allowed — as its
 * canonical string; null for anything else (`"n/a"`, `"1,5"`, `"NaN"`, `"Infinity"`, `""`, `"0x10"`).
 */
export function parseDecimal(text: string): Decimal | null {
  const m = DECIMAL.exec(text.trim());
  if (!m || text.length > MAX_LENGTH) return null;
  const [, sign = "", whole = "", fraction = "", exponentText = "0"] = m;
  if (whole === "" && fraction === "") return null;
  const exponent = Number.parseInt(exponentText, 10);
  // Move the point by the exponent over the digits as written.
  const digits = whole + fraction;
  if (Math.abs(exponent) > MAX_LENGTH) return null;
  let point = whole.length + exponent;
  let padded = digits;
  if (point < 0) {
    padded = "0".repeat(-point) + padded;
    point = 0;
  } else if (point > padded.length) {
    padded = padded + "0".repeat(point - padded.length);
  }
  const integer = padded.slice(0, point).replace(/^0+/, "") || "0";
  const decimals = padded.slice(point);
  const body = decimals ? `${integer}.${decimals}` : integer;
  if (body.length > MAX_LENGTH) return null;
  const zero = /^[0.]*$/.test(body);
  return sign === "-" && !zero ? `-${body}` : body;
}

/**
 * A provider's amount — a JSON number literal (kept as text by lossless-json), a numeric string, or a
 * JavaScript number that some caller already holds (its shortest exact text) — as a canonical decimal; null
 * for anything else.
 */
export function toDecimal(value: unknown): Decimal | null {
  if (typeof value === "string") return parseDecimal(value);
  const lossless = losslessText(value);
  if (lossless !== null) return parseDecimal(lossless);
  if (typeof value === "number") return Number.isFinite(value) ? parseDecimal(String(value)) : null;
  return null;
}

/** True when `value` is already a decimal in canonical form. */
export function isCanonicalDecimal(value: string): boolean {
  return parseDecimal(value) === value;
}

/** A big.js of its own (others' settings never leak in): 40 places for quotients, halves rounded up. */
const Dec = Big();
Dec.DP = 40;
Dec.RM = Big.roundHalfUp;
const big = (d: Decimal) => new Dec(d);

/** -1, 0 or 1, by value (`12.5` and `12.50` are equal). */
export function compareDecimal(a: Decimal, b: Decimal): -1 | 0 | 1 {
  return big(a).cmp(big(b)) as -1 | 0 | 1;
}

export function isZero(a: Decimal): boolean {
  return big(a).eq(0);
}

export function isNegative(a: Decimal): boolean {
  return big(a).lt(0);
}

/** Exact sum, canonical (big.js never rounds an addition). */
export function addDecimals(...values: Decimal[]): Decimal {
  return canonical(values.reduce((sum, v) => sum.plus(v), new Dec(0)));
}

export function subtractDecimal(a: Decimal, b: Decimal): Decimal {
  return canonical(big(a).minus(b));
}

/** Exact product (a crypto amount times a rate in EUR per unit), canonical. */
export function multiplyDecimal(a: Decimal, b: Decimal): Decimal {
  return canonical(big(a).times(b));
}

/** `a / b` to `decimals` places, rounded half up (a quotient need not end); null when b is zero. */
export function divideDecimal(a: Decimal, b: Decimal, decimals: number): Decimal | null {
  if (big(b).eq(0)) return null;
  // Rounded once, at `decimals`: a constructor whose division stops there.
  const Quotient = Big();
  Quotient.DP = Math.max(decimals, 0);
  Quotient.RM = Big.roundHalfUp;
  return canonical(new Quotient(a).div(b));
}

/** Rounded half up to `decimals` places, canonical (trailing zeros kept to that many places). */
export function roundDecimal(a: Decimal, decimals: number): Decimal {
  return parseDecimal(big(a).round(decimals, Big.roundHalfUp).toFixed(decimals))!;
}

/**
 * An amount in minor units (cents for EUR, satoshi for BTC at 8, wei for ETH at 18) as a bigint; null when
 * the amount has non-zero digits below the minor unit (it cannot be written in whole minor units).
 */
/** `a` to `digits` significant figures, halves up, exactly ("0.919834" → "0.9198", "0.0000123456" → "0.00001235"). */
export function roundSignificant(a: Decimal, digits: number): Decimal {
  return canonical(big(a).prec(digits, Big.roundHalfUp));
}

export function toMinorUnits(a: Decimal, decimals: number): bigint | null {
  const [whole, fraction = ""] = a.replace(/^-/, "").split(".");
  const kept = fraction.slice(decimals);
  if (/[1-9]/.test(kept)) return null;
  const units = BigInt(whole + fraction.slice(0, decimals).padEnd(decimals, "0"));
  return a.startsWith("-") ? -units : units;
}

export function fromMinorUnits(units: bigint, decimals: number): Decimal {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(decimals + 1, "0");
  const body = decimals ? `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}` : digits;
  return parseDecimal(negative ? `-${body}` : body)!;
}

/** (to − from) / from in percent, for a direction and a "+4.1 %" — a ratio, not money; null when `from` is not positive. */
export function percentChange(from: Decimal, to: Decimal): number | null {
  if (!big(from).gt(0)) return null;
  return big(to).minus(from).div(from).times(100).toNumber();
}

/**
 * An approximate JavaScript number, for one thing only: where a chart draws a bar. Never for arithmetic,
 * display or files (the figures beside the chart are formatted from the decimal).
 */
export function plotNumber(a: Decimal): number {
  return big(a).toNumber();
}

function canonical(value: Big.Big): Decimal {
  // big.js's toFixed() is plain notation whatever the size.
  return parseDecimal(value.toFixed())!;
}

// ---- Formatting ---------------------------------------------------------------------------------------

export type DecimalFormat = {
  /** At least this many decimals (padded with zeros): a currency's own (2 for EUR), or 2 for crypto. */
  minDecimals: number;
  /**
   * Only for computed figures (a crypto amount at a rate): rounds to this many decimals, marked "≈" when a
   * non-zero digit went, and shown as "< 0.01" when a non-zero value would round to zero. An amount the
   * provider sent is never given a maximum: every significant digit it has is shown.
   */
  maxDecimals?: number;
};

/**
 * "1,234.5678" from a decimal, en-GB style (`,` groups, `.` before decimals): at least `minDecimals`
 * decimals, and every further significant digit — so 1 wei is 0.000000000000000001 and nothing a provider
 * sent is ever rounded away. Returns the parts so that a currency's symbol can go between sign and digits.
 */
export function formatDecimalParts(
  a: Decimal,
  { minDecimals, maxDecimals }: DecimalFormat,
): { marker: "" | "≈ " | "< "; negative: boolean; digits: string } {
  let value = a;
  let marker: "" | "≈ " | "< " = "";
  if (maxDecimals !== undefined) {
    const rounded = roundDecimal(a, maxDecimals);
    if (compareDecimal(rounded, a) !== 0) {
      if (isZero(rounded)) {
        marker = "< ";
        value = isNegative(a) ? `-${fromMinorUnits(1n, maxDecimals)}` : fromMinorUnits(1n, maxDecimals);
      } else {
        marker = "≈ ";
        value = rounded;
      }
    }
  }
  const negative = value.startsWith("-");
  const [whole, fraction = ""] = value.replace(/^-/, "").split(".");
  const significant = fraction.replace(/0+$/, "");
  const decimals = significant.padEnd(minDecimals, "0");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return { marker, negative, digits: decimals ? `${grouped}.${decimals}` : grouped };
}

export function formatDecimal(a: Decimal, format: DecimalFormat): string {
  const { marker, negative, digits } = formatDecimalParts(a, format);
  return `${marker}${negative ? "-" : ""}${digits}`;
}
