import { type Decimal, parseDecimal } from "./money";

/*
 * The one reader of an amount a person types (docs/operations.md, "Amounts are decimals"): the archive form's
 * amount and both boxes of the rates converter. It accepts digits with at most one decimal point, and nothing
 * else: a comma, a grouping separator (a space, an apostrophe, dots between groups of three), a sign, a
 * currency or a letter is refused with a sentence that names the field and says what to write. It never
 * guesses: "1,234" could be 1.234 or 1234, so the person decides. (A CSV file is read otherwise: the person
 * says which decimal separator it uses, lib/browser/archive/csv.ts; the example there is the same 1234.50.)
 */

export type TypedAmount = { kind: "empty" } | { kind: "amount"; value: Decimal } | { kind: "refused"; message: string };

/** What a typed amount may be: digits with at most one point (`12`, `12.50`, `.5`, `5.`). */
const PLAIN = /^(\d+\.?\d*|\.\d+)$/;
/** Longer text is no amount anyone types (the ledger holds 20 digits before the point and 18 after). */
const MAX_TYPED = 60;

/** The expected form, in the words every refusal uses. */
export const TYPED_AMOUNT_EXPECTED = "Write 1234.50: digits and a point, no thousands separators";

/**
 * Reads what a person typed in the field named `field` ("Amount in EUR", "ETH"). Surrounding spaces are
 * ignored; an empty box is `empty` (the caller decides whether that is allowed).
 */
export function readTypedAmount(text: string, field: string): TypedAmount {
  const typed = text.trim();
  if (typed === "") return { kind: "empty" };
  const refuse = (why: string, advice = `${TYPED_AMOUNT_EXPECTED}.`): TypedAmount => ({
    kind: "refused",
    message: `${field}: ${why}. ${advice}`,
  });
  if (typed.length > MAX_TYPED) return refuse("that is longer than any amount");
  if (PLAIN.test(typed)) {
    const value = parseDecimal(typed);
    if (value !== null) return { kind: "amount", value };
  }
  if (/^[-\u2212]/.test(typed) && PLAIN.test(typed.slice(1))) return refuse("must be 0 or more", "Write it without a minus.");
  if (/[^\d.,\s\u00a0\u202f'’]/.test(typed)) return refuse("write the number alone, without a currency sign, a sign or letters");
  if (/^\d+,\d+$/.test(typed)) {
    // One comma between digits: a decimal comma ("0,5") or a thousands separator ("1,234"). Not guessed.
    const [whole, fraction] = typed.split(",");
    return refuse(
      `a comma is not read here`,
      `${TYPED_AMOUNT_EXPECTED}: if you mean ${whole} and a fraction, use a point (${whole}.${fraction})${fraction.length === 3 ? `; if you mean ${whole}${fraction}, leave the comma out` : ""}.`,
    );
  }
  if (typed.includes(","))
    return refuse(
      "a comma is not read here (neither as a thousands separator nor as a decimal comma)",
      `${TYPED_AMOUNT_EXPECTED}; use a point for decimals.`,
    );
  if (/[\s\u00a0\u202f'’]/.test(typed)) return refuse("spaces and apostrophes between digits are not read (a thousands separator)");
  if ((typed.match(/\./g) ?? []).length > 1) return refuse("more than one point (dots between groups of digits are a thousands separator)");
  return refuse("that is not a number");
}
