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
/** JSON's own whitespace, and some it does not allow. */
const space = fc.constantFrom("", " ", "\n", "\t", "\r\n  ", "\u00a0", "\u2028");
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    literal,
    text.map((s) => JSON.stringify(s)),
    fc.constantFrom("true", "null"),
    tie("array"),
    tie("object"),
  ),
  array: fc.array(fc.tuple(space, tie("value"), space), { maxLength: 5 }).map((items) => `[${items.map((i) => i.join("")).join(",")}]`),
  object: fc
    .array(fc.tuple(text, space, tie("value"), space), { maxLength: 5 })
    .map((entries) => `{${entries.map(([k, a, v, b]) => `${JSON.stringify(k)}:${a}${v}${b}`).join(",")}}`),
})).object;
/** A document broken in one place: a character dropped, doubled or changed. */
const broken = fc
  .tuple(json, fc.nat(), fc.constantFrom("drop", "double", ",", ":", "0", ".", "-", '"', "]", "}", "e"))
  .map(([document, at, edit]) => {
    const i = at % Math.max(document.length, 1);
    if (edit === "drop") return document.slice(0, i) + document.slice(i + 1);
    if (edit === "double") return document.slice(0, i) + document[i] + document.slice(i);
    return document.slice(0, i) + edit + document.slice(i + 1);
  });

describe("reading JSON without rounding a number", () => {
  it("gives exactly what lossless-json gives, every digit, for any document (property)", () => {
    fc.assert(
      fc.property(json, (document) => {
        expect(fast(document)).toEqual(lossless(document));
      }),
      { numRuns: 3_000 },
    );
  });

  it("refuses exactly what lossless-json refuses, and reads the rest alike, for documents broken in one place (property)", () => {
    fc.assert(
      fc.property(broken, (document) => {
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
      // A later duplicate key replaces the marked literal before it is read: still refused.
      '{"a": -6-9e-310 ,"a":\t{}}',
      '{"a": 1.50 1}',
      "{1.50: 2}",
      '{"a":1, 1.50: 2}',
      '["x":1.50,]',
      "[1.50,]",
    ]) {
      expect(fast(bad), bad).toEqual({ refused: true });
    }
  });

  it("reads natively, marking only the literals a float would change: those are LosslessNumbers, the rest numbers", () => {
    const read = parseJsonLossless('{"eth": 0.123456789012345678, "items": [{"n": 20, "at": "19:15:34.160Z"}]}', {
      duplicateKeys: "last",
    }) as { eth: unknown; items: { n: unknown }[] };
    expect(read.items[0].n).toBe(20);
    expect(isLosslessNumber(read.eth) && read.eth.value).toBe("0.123456789012345678");
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

  it("reads an escaped key the exact way, where V8's JSON.parse could take it for a key seen before (./parse-json.ts)", () => {
    // A key of its own first, so that this object's shapes are new to V8 whatever ran before.
    JSON.parse('{"metadata":{"poisoned":0,"\\\\":0}}');
    const read = parseJsonLossless('{"metadata":{"poisoned":0,"\\"":1},"eth":0.123456789012345678}', { duplicateKeys: "last" });
    expect(digits(read)).toEqual({
      metadata: { poisoned: { number: "0" }, '"': { number: "1" } },
      eth: { number: "0.123456789012345678" },
    });
  });
});
