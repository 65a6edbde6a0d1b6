import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { csvNeedsQuotes, csvTextCell, neutraliseCsvCell, restoreCsvCell, showUnsafeCharacters } from "./csv-formula";

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

describe("csvTextCell", () => {
  it("shows terminal escapes, other controls and direction overrides by their code, then neutralises formulas", () => {
    expect(csvTextCell("ctl\u0001\u0007\u001b[31mred")).toBe("ctl<U+0001><U+0007><U+001B>[31mred");
    expect(csvTextCell("\u202eexe.pdf")).toBe("<U+202E>exe.pdf");
    expect(csvTextCell("\u0085\u007f\u2066x\u2069")).toBe("<U+0085><U+007F><U+2066>x<U+2069>");
    expect(csvTextCell("=HYPERLINK(1)\u0001")).toBe("'=HYPERLINK(1)<U+0001>");
  });

  it("keeps tabs, line breaks and every other character as they are", () => {
    for (const text of ["Café ☕", "a\tb", "line\r\nnext", "עברית", "日本語", "€1,5"]) expect(showUnsafeCharacters(text)).toBe(text);
  });

  it("leaves no unsafe character in any string", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (text) => {
        expect(csvTextCell(text)).not.toMatch(
          /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u,
        );
      }),
      { numRuns: 2000 },
    );
  });
});
