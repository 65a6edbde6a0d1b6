import { describe, expect, it } from "vitest";
import { readTypedAmount, TYPED_AMOUNT_EXPECTED } from "./typed-amount";

/*
 * No silent guesses on numbers people type: the archive form and the converter read a typed
 * amount with this one function. Digits and at most one point are read exactly; everything else is refused
 * with a sentence naming the field and saying what to write.
 */

describe("readTypedAmount", () => {
  it.each([
    ["1234.50", "1234.50"],
    ["49.9", "49.9"],
    [" 7 ", "7"],
    ["0", "0"],
    ["0.000000000000000001", "0.000000000000000001"],
    ["99999999999999999999.999999999999999999", "99999999999999999999.999999999999999999"],
    [".5", "0.5"],
    ["5.", "5"],
    ["007.10", "7.10"],
  ])("reads %j as %j, every digit kept", (text, value) => {
    expect(readTypedAmount(text, "Amount in EUR")).toEqual({ kind: "amount", value });
  });

  it.each(["", "   "])("%j is empty, not zero", (text) => {
    expect(readTypedAmount(text, "Amount in EUR")).toEqual({ kind: "empty" });
  });

  it.each([
    // [typed, words the message must hold]
    ["1,234", ["a comma is not read here", "use a point (1.234)", "if you mean 1234, leave the comma out"]],
    ["1,000", ["a comma is not read here", "use a point (1.000)", "if you mean 1000, leave the comma out"]],
    ["2,500", ["a comma is not read here", "use a point (2.500)", "if you mean 2500"]],
    ["0,5", ["a comma is not read here", "use a point (0.5)"]],
    ["1.000,50", ["a comma is not read here", "use a point for decimals"]],
    ["1,234.5", ["a comma is not read here", "use a point for decimals"]],
    ["€5", ["without a currency sign"]],
    ["5 EUR", ["without a currency sign"]],
    ["0.5ETH", ["without a currency sign"]],
    ["1e5", ["without a currency sign, a sign or letters"]],
    ["+5", ["without a currency sign, a sign or letters"]],
    ["1 000", ["spaces and apostrophes between digits", "thousands separator"]],
    ["1\u00a0000.50", ["spaces and apostrophes between digits"]],
    ["1'000", ["spaces and apostrophes between digits"]],
    ["1.000.000", ["more than one point", "thousands separator"]],
    ["-1", ["must be 0 or more", "without a minus"]],
    ["\u22121.5", ["must be 0 or more"]],
    [".", ["not a number"]],
    ["1".repeat(61), ["longer than any amount"]],
  ])("refuses %j, naming the field and what to write", (text, words) => {
    const read = readTypedAmount(text as string, "Amount in ETH");
    expect(read.kind).toBe("refused");
    const message = (read as { message: string }).message;
    expect(message.startsWith("Amount in ETH: ")).toBe(true);
    for (const w of words as string[]) expect(message).toContain(w);
    if (!(text as string).startsWith("-") && !(text as string).startsWith("\u2212")) expect(message).toContain(TYPED_AMOUNT_EXPECTED);
  });

  it("never reads a comma or grouping as anything: no refused text has a value", () => {
    for (const text of ["1,234", "1,000", "2,500", "1.000,50", "1 000", "12,50", "1'234.5"]) {
      expect(readTypedAmount(text, "EUR")).not.toHaveProperty("value");
    }
  });
});
