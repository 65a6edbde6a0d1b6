import Big from "big.js";
import { isLosslessNumber, LosslessNumber, parse as parseLossless, stringify as stringifyLossless } from "lossless-json";
import { hasEscapedKey } from "./parse-json";

/*
 * The money module's JSON side: amounts read from and written to JSON with exactly their digits, and the
 * ledger's rules on them (./money.ts is the side the console shows and sums with; it stays free of the JSON
 * library, which the browser does not need). An amount travels as a decimal string — `"0.123456789012345678"` —
 * from the JSON literal it was sent as to the numeric column it is stored in and back to the JSON literal it
 * is answered with; arithmetic on it is big.js, never a float. Isomorphic: no I/O.
 */

/** A plain decimal as this module writes it: no sign unless negative, no exponent, no trailing zeros. */
const CANONICAL = /^-?(0|[1-9]\d*)(\.\d*[1-9])?$/;
/** What is read as a decimal: a JSON number literal, or the text of a numeric column. */
const DECIMAL_TEXT = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;

/** Longest decimal text read at all: far beyond every column, short enough that no check can be slow. */
const DECIMAL_TEXT_MAX = 400;

/** True when `text` is a decimal (a JSON number literal, or a numeric column's text). */
export function isDecimalText(text: string): boolean {
  return text.length <= DECIMAL_TEXT_MAX && DECIMAL_TEXT.test(text);
}

/** The digits of a decimal without exponent or trailing zeros (`"1.50"` → `"1.5"`, `"1e-8"` → `"0.00000001"`). */
export function canonicalDecimal(text: string): string {
  if (CANONICAL.test(text)) return text === "-0" ? "0" : text;
  if (!isDecimalText(text)) throw new RangeError(`not a decimal: ${JSON.stringify(text.slice(0, 40))}`);
  const big = new Big(text);
  if (Math.abs(big.e) > DECIMAL_TEXT_MAX) throw new RangeError(`a decimal too large or too small to write out: ${text}`);
  return plain(big);
}

/** A big.js value written out in full (never as `1e-7`). */
export function plain(value: Big): string {
  const text = value.toFixed();
  return text === "-0" ? "0" : text;
}

/**
 * How a decimal's digits fall: places after the point and digits before it, read from the text without
 * writing it out (so `1e-1000000` costs nothing). Zero has no integer digits.
 */
export function decimalShape(text: string): { negative: boolean; places: number; integerDigits: number } {
  const big = new Big(text);
  const zero = big.c.length === 1 && big.c[0] === 0;
  return {
    negative: big.s < 0 && !zero,
    places: zero ? 0 : Math.max(0, big.c.length - 1 - big.e),
    integerDigits: zero || big.e < 0 ? 0 : big.e + 1,
  };
}

/** `text` rounded half-up to `places` decimals, written out canonically. */
export function roundDecimal(value: Big, places: number): string {
  return canonicalDecimal(value.round(places, Big.roundHalfUp).toFixed());
}

/** A JS number (e.g. from a form) as the decimal it prints as: `0.1` → `"0.1"`, `1e-7` → `"0.0000001"`. */
export function numberToDecimal(value: number): string {
  if (!Number.isFinite(value)) throw new RangeError("not a finite number");
  return plain(new Big(value));
}

/** A decimal string as a JSON number with exactly its digits, for `stringifyJson`. */
export function jsonNumber(decimal: string): LosslessNumber {
  return new LosslessNumber(canonicalDecimal(decimal));
}

export { Big, isLosslessNumber, LosslessNumber };

/**
 * JSON text with every number literal kept as its text (a `LosslessNumber`): nothing is rounded through a
 * float on the way in. Throws a SyntaxError for text that is not JSON, and for a key given twice unless
 * `duplicateKeys: "last"` (then the last value is kept, as JSON.parse does).
 *
 * With "last", the native JSON.parse reads the text (four times faster than lossless-json, a page of invoices
 * 1 ms instead of 2): a literal a float writes back unchanged (`49.9`, `2400`) is read as a number, and every
 * other (`0.123456789012345678`, `12.50`, `1E3`, `-0`) is first marked as a string and then read as a
 * `LosslessNumber` with its text. Whatever the marking cannot vouch for, and a text with an escaped key (./parse-json.ts),
 * goes through lossless-json instead.
 */
export function parseJsonLossless(text: string, { duplicateKeys = "refuse" }: { duplicateKeys?: "refuse" | "last" } = {}): unknown {
  if (duplicateKeys === "refuse") return parseLossless(text);
  const exact = parseMarked(text);
  return exact === NOT_MARKED ? parseLossless(text, null, { onDuplicateKey: ({ newValue }) => newValue }) : exact;
}

/**
 * A number literal where a value stands: after `:`, `[` or `,`, and followed by `,`, `}` or `]`. Text inside a
 * string may match too; marking it there closes the string, and the marker's backslash outside any string makes
 * the text one JSON.parse refuses, so it goes the exact way.
 */
const VALUE_LITERAL = /([:[,]\s*)(-?\d[\d.eE+-]*)(?=\s*[,}\]])/g;
/** Starts every marked literal: U+0000, which a text that holds none escaped cannot start a string with. */
const MARK = "\u0000";
const NOT_MARKED = Symbol("not marked");
/** A JSON number literal, exactly. */
const JSON_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

function parseMarked(text: string): unknown {
  if (!/^\s*[[{]/.test(text) || text.includes("\\u0000") || hasEscapedKey(text)) return NOT_MARKED;
  let marked = 0;
  let malformed = false;
  const markedText = text.replace(VALUE_LITERAL, (whole, lead: string, literal: string) => {
    // A check of the literal's text, not a use of its value: the value is read from the text either way.
    if (String(Number(literal)) === literal) return whole;
    // No JSON number ("01", "1-2"): refused by lossless-json, even where a later duplicate key would hide it.
    if (!JSON_NUMBER.test(literal)) malformed = true;
    marked++;
    return `${lead}"\\u0000${literal}"`;
  });
  if (malformed) return NOT_MARKED;
  try {
    return marked ? unmark(JSON.parse(markedText)) : JSON.parse(text);
  } catch {
    return NOT_MARKED;
  }
}

/**
 * The marked strings of a parsed text as LosslessNumbers, in place. Throws for a marked key: lossless-json then
 * says why.
 */
function unmark(value: unknown): unknown {
  if (typeof value === "string") return value.startsWith(MARK) ? new LosslessNumber(value.slice(1)) : value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = unmark(value[i]);
  } else if (value && typeof value === "object") {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      if (key.startsWith(MARK)) throw new SyntaxError("a number literal as a key");
      record[key] = unmark(record[key]);
    }
  }
  return value;
}

/** JSON text in which each `LosslessNumber` is written as a number with exactly its digits. */
export function stringifyJson(value: unknown): string {
  return stringifyLossless(value) ?? "null";
}
