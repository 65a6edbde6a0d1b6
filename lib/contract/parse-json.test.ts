import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hasEscapedKey, parseJson } from "./parse-json";

// Keys as anyone's metadata may hold them: what JSON writes escaped, and what it does not.
const keyPiece = fc.constantFrom("a", "h", "\\", '"', "/", "\n", "\u0001", "é", "😀", "\ud800");
const oddKey = fc.array(keyPiece, { minLength: 1, maxLength: 3 }).map((pieces) => pieces.join(""));

describe("parseJson", () => {
  it("reads an escaped key as itself after a key holding a backslash was read at the same place", () => {
    // What V8's JSON.parse gets wrong on Node 24: the second key comes back as "\\". A first key of its own keeps
    // these shapes new to V8, whatever ran before.
    JSON.parse('{"poisoned":[],"\\\\":0}');
    expect(Object.keys(parseJson('{"poisoned":1,"\\"":2}') as object)).toEqual(["poisoned", '"']);
    expect(Object.keys(parseJson('{"poisoned":1,"\\n":2}') as object)).toEqual(["poisoned", "\n"]);
  });

  it("gives back any object of odd keys, whatever was read before it", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(oddKey, fc.oneof(oddKey, fc.integer())), { maxLength: 5 }), (entries) => {
        const value = Object.fromEntries(entries);
        // Read first, the same shape with a backslash for each character JSON escapes misleads the native parser.
        JSON.parse(JSON.stringify(Object.fromEntries(entries.map(([key]) => [key.replace(/["\\\n\u0001\ud800-\udfff]/gu, "\\"), 0]))));
        expect(parseJson(JSON.stringify(value))).toEqual(value);
      }),
      { numRuns: 2000 },
    );
  });

  it("is JSON.parse on a key given twice and on a __proto__ key, and refuses what is not JSON", () => {
    const escaped = parseJson('{"\\u0061":1,"a":2,"__proto__":{"x":1}}') as Record<string, unknown>;
    expect(escaped).toEqual(JSON.parse('{"a":2,"__proto__":{"x":1}}'));
    expect(Object.getPrototypeOf(escaped)).toBe(Object.prototype);
    expect(() => parseJson('{"\\n":}')).toThrow(SyntaxError);
    expect(() => parseJson("{")).toThrow(SyntaxError);
    // Deeper than the JavaScript parser's stack reaches: refused as JSON, not a crash.
    expect(() => parseJson(`${'{"\\n":'.repeat(20_000)}1${"}".repeat(20_000)}`)).toThrow(SyntaxError);
  });
});

describe("hasEscapedKey", () => {
  it("finds an escape in a key, not in a value", () => {
    expect(hasEscapedKey('{"a\\"b":1}')).toBe(true);
    expect(hasEscapedKey('{"a" : 1, "b\\u0041"\n:2}')).toBe(true);
    expect(hasEscapedKey('{"a":"x\\":y","b":"\\\\","c":["\\n"]}')).toBe(false);
    expect(hasEscapedKey('{"plain":1}')).toBe(false);
  });

  it("answers a long text of escapes in one pass", () => {
    const text = `{"a":"${'\\"'.repeat(500_000)}"}`;
    expect(hasEscapedKey(text)).toBe(false);
    expect(hasEscapedKey(`${text.slice(0, -1)},"\\"":1}`)).toBe(true);
  });
});
