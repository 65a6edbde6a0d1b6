import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { csvNeedsQuotes, neutraliseCsvCell, restoreCsvCell } from "./csv-formula";

/** Every cell a spreadsheet could make of the text: split on each separator a locale or a paste may use. */
const parts = (text: string) => text.split(/[;,\t\r\n]/);
/** What a spreadsheet runs: after spaces, a formula trigger (a tab or CR counts at the very start of the text). */
const runs = (part: string) => /^\s*[=+\-@]/.test(part);

// Text made mostly of the characters that matter here, so the properties meet them often.
const risky = fc.string({ unit: fc.constantFrom("=", "+", "-", "@", "\t", "\r", "\n", ";", ",", "'", " ", "\u00a0", "a", "1", ".", '"') });
const anyText = fc.oneof(risky, fc.string({ unit: "grapheme" }), fc.string({ unit: "binary" }));

describe("neutraliseCsvCell / restoreCsvCell", () => {
  it("neutralises every part of the attack string, not only its start", () => {
    const attack = "x;=cmd|'/C calc'!A0;y";
    const written = neutraliseCsvCell(attack);
    expect(written).toBe("x;'=cmd|'/C calc'!A0;y");
    expect(parts(written).filter(runs)).toEqual([]);
    expect(restoreCsvCell(written)).toBe(attack);
  });

  it("puts the ' after a part's leading spaces, before a tab or CR, and adds one to quotes already there", () => {
    expect(neutraliseCsvCell("=1+1")).toBe("'=1+1");
    expect(neutraliseCsvCell("a, =HYPERLINK()")).toBe("a, '=HYPERLINK()");
    expect(neutraliseCsvCell("\tcmd")).toBe("'\tcmd");
    expect(neutraliseCsvCell("a;\r\n@x")).toBe("a;'\r\n'@x");
    expect(neutraliseCsvCell("'=x")).toBe("''=x");
    expect(neutraliseCsvCell("a\n-2+3")).toBe("a\n'-2+3");
    // No trigger, no change: quotes alone, a trigger inside a part, plain text.
    for (const text of ["'quoted'", "a=b-c", "it's", "Café ☕", "", "0.00000025", "1,5"]) expect(neutraliseCsvCell(text)).toBe(text);
  });

  it("restores exactly what it neutralised, for any string", () => {
    fc.assert(
      fc.property(anyText, (text) => restoreCsvCell(neutraliseCsvCell(text)) === text),
      { numRuns: 2000 },
    );
  });

  it("leaves no part, split on ; , tab CR or LF, that a spreadsheet would run", () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const written = neutraliseCsvCell(text);
        expect(parts(written).filter(runs)).toEqual([]);
        // Nor does the text start, after spaces, with a tab or CR.
        expect(written).not.toMatch(/^[^\S\t\r]*[\t\r]/);
      }),
      { numRuns: 2000 },
    );
  });

  it("asks for quotes around a cell with a separator, a quote or a neutralised trigger", () => {
    for (const text of ["a;b", "a,b", "a\tb", "a\nb", "a\rb", 'a"b', "'=x"]) expect(csvNeedsQuotes(text)).toBe(true);
    expect(csvNeedsQuotes("plain text 1.5")).toBe(false);
  });
});
