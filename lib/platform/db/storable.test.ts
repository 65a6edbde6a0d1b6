import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseJson } from "@/lib/contract/parse-json";
import { storable, storableJson } from "./storable";

// What breaks a naive escape: U+0000, each half of a pair alone, whole pairs, and backslashes before "u0000".
const piece = fc.constantFrom(
  "\u0000",
  "\ud800",
  "\udbff",
  "\udc00",
  "\udfff",
  "😀",
  "\\",
  "\\u0000",
  "\\ud800",
  "u",
  "0",
  "d8",
  "a",
  '"',
  "\u0001",
);
const oddText = fc.array(piece, { maxLength: 12 }).map((pieces) => pieces.join(""));

describe("storable", () => {
  it("writes U+0000 and half a surrogate pair as U+FFFD, in values and keys, and keeps whole pairs", () => {
    expect(storable({ "k\u0000": ["a\ud800b", "😀", "\udc00"] })).toEqual({ "k\uFFFD": ["a\uFFFDb", "😀", "\uFFFD"] });
  });
});

describe("storableJson", () => {
  it("is the JSON of storable(value), for any text in values and keys", () => {
    fc.assert(
      fc.property(fc.dictionary(oddText, fc.oneof(oddText, fc.array(oddText, { maxLength: 3 }))), (value) => {
        const text = storableJson(value);
        expect(parseJson(text)).toEqual(storable(value));
        expect(text).not.toMatch(/(?<!\\)(\\\\)*\\u(0000|d[89a-f])/);
      }),
      { numRuns: 500 },
    );
  });
});
