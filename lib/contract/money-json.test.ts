import fc from "fast-check";
import { isLosslessNumber, parse as parseLossless } from "lossless-json";
import { describe, expect, it } from "vitest";
import { parseJsonLossless } from "./money-json";

/** A parsed value with every number as its text: what the two readers must agree on. */
const digits = (value: unknown): unknown => {
  if (isLosslessNumber(value)) return { number: value.value };
  if (typeof value === "number") return { number: String(value) };
  if (Array.isArray(value)) return value.map(digits);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, digits(v)]));
  return value;
};

const lossless = (text: string) => {
  try {
    return { value: digits(parseLossless(text, null, { onDuplicateKey: ({ newValue }) => newValue })) };
  } catch {
    return { refused: true };
  }
};
const fast = (text: string) => {
  try {
    return { value: digits(parseJsonLossless(text, { duplicateKeys: "last" })) };
  } catch {
    return { refused: true };
  }
};

/** Number literals of every kind JSON allows: floats' own, long, exponents, trailing zeros, -0. */
const literal = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
  fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String),
  fc
    .tuple(fc.bigInt({ min: 0n, max: 10n ** 20n }), fc.stringMatching(/^\d{1,20}$/), fc.constantFrom("", "e5", "E-7", "e+2"))
    .map(([int, frac, exp]) => `${int}.${frac}${exp}`),
  fc.constantFrom("-0", "0.10", "12.50", "1e-7", "0.123456789012345678", "49.9", "2400"),
);
/** Strings that look like literals, structure or the mark, where the marking must not reach. */
const text = fc.oneof(
  fc.string(),
  fc.constantFrom(":1.50,", "[0.10]", "a:12.50}", "\u0000", "\u00001.5", "2026-11-27T19:15:34.160Z", ",-0]"),
);
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    literal,
    text.map((s) => JSON.stringify(s)),
    fc.constantFrom("true", "null"),
    tie("array"),
    tie("object"),
  ),
  array: fc.array(tie("value"), { maxLength: 5 }).map((items) => `[${items.join(", ")}]`),
  object: fc
    .array(fc.tuple(text, tie("value")), { maxLength: 5 })
    .map((entries) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(",")}}`),
})).object;

describe("reading JSON without rounding a number", () => {
  it("gives exactly what lossless-json gives, every digit, for any document (property)", () => {
    fc.assert(
      fc.property(json, (document) => {
        expect(fast(document)).toEqual(lossless(document));
      }),
      { numRuns: 3_000 },
    );
  });

  it("refuses what is not JSON, as lossless-json does, however the marking would have read it", () => {
    for (const bad of [
      '{"a": 01}',
      '{"a": 1.}',
      '{"a": 1-2}',
      '{"a": 1.50 1}',
      "{1.50: 2}",
      '{"a":1, 1.50: 2}',
      '["x":1.50,]',
      "[1.50,]",
    ]) {
      expect(fast(bad), bad).toEqual({ refused: true });
    }
  });

  it("keeps each literal a float would change as its text, and a string that looks like one as a string", () => {
    const read = parseJsonLossless('{"eth": 0.012345678901234567, "eur": 12.50, "n": 20, "at": "19:15:34.160Z", "s": "a:1.50,"}', {
      duplicateKeys: "last",
    }) as Record<string, unknown>;
    expect(digits(read)).toEqual({
      eth: { number: "0.012345678901234567" },
      eur: { number: "12.50" },
      n: { number: "20" },
      at: "19:15:34.160Z",
      s: "a:1.50,",
    });
  });
});
