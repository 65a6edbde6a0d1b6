import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decimalAmount } from "./invoice";
import {
  addDecimals,
  compareDecimal,
  divideDecimal,
  formatDecimal,
  fromMinorUnits,
  multiplyDecimal,
  parseDecimal,
  percentChange,
  roundDecimal,
  subtractDecimal,
  toDecimal,
  toMinorUnits,
} from "./money";

/** A decimal's text: up to 20 integer digits and up to 18 decimals, maybe negative, as a provider writes one. */
const decimalText = fc
  .tuple(fc.boolean(), fc.stringMatching(/^(0|[1-9]\d{0,19})$/), fc.stringMatching(/^\d{0,18}$/))
  .map(
    ([negative, whole, fraction]) => `${negative && /[1-9]/.test(whole + fraction) ? "-" : ""}${whole}${fraction ? `.${fraction}` : ""}`,
  );

describe("parseDecimal", () => {
  it.each([
    ["0.123456789012345678", "0.123456789012345678"],
    ["12345.123456789012345678", "12345.123456789012345678"],
    ["100000000000000.01", "100000000000000.01"],
    ["0.000000000000000001", "0.000000000000000001"],
    ["12.50", "12.50"],
    [" 7 ", "7"],
    ["+3.1", "3.1"],
    ["007.5", "7.5"],
    [".5", "0.5"],
    ["5.", "5"],
    ["-0.00", "0.00"],
    ["-1.5", "-1.5"],
    ["1e-8", "0.00000001"],
    ["1.5E+3", "1500"],
    ["1.50e1", "15.0"],
    ["123e-2", "1.23"],
    ["99999999999999999999.999999999999999999", "99999999999999999999.999999999999999999"],
  ])("%j → %j", (text, canonical) => {
    expect(parseDecimal(text)).toBe(canonical);
  });

  it.each(["", " ", ".", "-", "n/a", "1,5", "1 000", "NaN", "Infinity", "-Infinity", "0x10", "1e", "1e99999", "€5", "5 EUR", "1.2.3"])(
    "refuses %j",
    (text) => {
      expect(parseDecimal(text)).toBeNull();
    },
  );

  it("round trips every decimal with up to 20 integer digits and 18 decimals", () => {
    fc.assert(fc.property(decimalText, (text) => parseDecimal(text) === text && parseDecimal(parseDecimal(text)!) === text));
  });

  it("reads a number in exponent form as the same value written out", () => {
    fc.assert(
      fc.property(decimalText, fc.integer({ min: -30, max: 30 }), (text, shift) => {
        // text × 10^shift written as mantissa·e(shift), and compared by value with the plain form
        const read = parseDecimal(`${text}e${shift}`);
        const [whole, fraction = ""] = text.replace("-", "").split(".");
        const units = BigInt(whole + fraction) * (text.startsWith("-") ? -1n : 1n);
        const scale = fraction.length - shift;
        const expected = scale >= 0 ? fromMinorUnits(units, scale) : fromMinorUnits(units * 10n ** BigInt(-scale), 0);
        return read !== null && compareDecimal(read, expected) === 0 && !/e/i.test(read);
      }),
    );
  });
});

describe("toDecimal", () => {
  it("reads a lossless-json number literal by its text, a string, or a number's shortest text", () => {
    expect(toDecimal({ isLosslessNumber: true, value: "0.123456789012345678" })).toBe("0.123456789012345678");
    expect(toDecimal("12.50")).toBe("12.50");
    expect(toDecimal(1e-7)).toBe("0.0000001");
    expect(toDecimal(249)).toBe("249");
  });

  it.each([null, undefined, true, {}, [], Number.NaN, Number.POSITIVE_INFINITY, { isLosslessNumber: true, value: "abc" }])(
    "refuses %j",
    (value) => {
      expect(toDecimal(value)).toBeNull();
    },
  );
});

describe("the console's amount schema", () => {
  it("accepts a JSON number literal or a decimal string and gives the canonical string", () => {
    expect(decimalAmount.parse("0.123456789012345678")).toBe("0.123456789012345678");
    expect(decimalAmount.parse({ isLosslessNumber: true, value: "1e-18" })).toBe("0.000000000000000001");
    expect(decimalAmount.parse(12.5)).toBe("12.5");
  });

  it.each(["n/a", "", true, null, { value: "1" }, [1], "1,50"])("refuses %j", (value) => {
    const result = decimalAmount.safeParse(value);
    expect(result.success).toBe(false);
  });
});

describe("arithmetic", () => {
  it("adds exactly where floats drift", () => {
    expect(addDecimals("0.1", "0.2")).toBe("0.3");
    expect(addDecimals("100000000000000.01", "100000000000000.01")).toBe("200000000000000.02");
    expect(addDecimals("70000000000000.01", "0.01", "0.01")).toBe("70000000000000.03");
    expect(addDecimals()).toBe("0");
  });

  it("sums equal the sum of bigint minor units", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), fc.bigInt({ min: 0n, max: 10n ** 38n - 1n })), { maxLength: 30 }), (items) => {
        const units = items.map(([negative, u]) => (negative ? -u : u));
        const decimals = units.map((u) => fromMinorUnits(u, 18));
        const sum = addDecimals(...decimals);
        return toMinorUnits(sum, 18) === units.reduce((a, b) => a + b, 0n);
      }),
    );
  });

  it("minor units round trip, and an amount finer than the unit has none", () => {
    fc.assert(fc.property(decimalText, (text) => fromMinorUnits(toMinorUnits(text, 18)!, 18) === roundDecimal(text, 18)));
    expect(toMinorUnits("12.50", 2)).toBe(1250n);
    expect(toMinorUnits("0.000000000000000001", 18)).toBe(1n);
    expect(toMinorUnits("0.001", 2)).toBeNull();
  });

  it("compares by value, trailing zeros aside", () => {
    expect(compareDecimal("12.5", "12.50")).toBe(0);
    expect(compareDecimal("0.000000000000000001", "0")).toBe(1);
    expect(compareDecimal("-1", "0.5")).toBe(-1);
  });

  it("multiplies, subtracts and divides exactly or rounds once, half up", () => {
    expect(multiplyDecimal("0.123456789012345678", "3180.12")).toBe("392.60740387394073752136");
    expect(subtractDecimal("0.0783", "0.0001")).toBe("0.0782");
    expect(divideDecimal("100", "3", 8)).toBe("33.33333333");
    expect(divideDecimal("2", "3", 2)).toBe("0.67");
    expect(divideDecimal("1", "0", 2)).toBeNull();
  });

  it("percent change is a ratio of decimals", () => {
    expect(percentChange("100", "104.1")).toBeCloseTo(4.1, 10);
    expect(percentChange("0", "1")).toBeNull();
  });
});

describe("formatDecimal", () => {
  it.each([
    ["0.123456789012345678", 2, "0.123456789012345678"],
    ["12345.123456789012345678", 2, "12,345.123456789012345678"],
    ["100000000000000.01", 2, "100,000,000,000,000.01"],
    ["0.000000000000000001", 2, "0.000000000000000001"],
    ["12.5", 2, "12.50"],
    ["12.500", 2, "12.50"],
    ["1234567", 0, "1,234,567"],
    ["-1234.5", 2, "-1,234.50"],
    ["12.345", 2, "12.345"],
  ])("%s with at least %i decimals → %s", (value, minDecimals, text) => {
    expect(formatDecimal(value, { minDecimals })).toBe(text);
  });

  it("never drops a significant digit of a decimal", () => {
    fc.assert(
      fc.property(decimalText, fc.integer({ min: 0, max: 18 }), (text, minDecimals) => {
        const shown = formatDecimal(text, { minDecimals }).replaceAll(",", "");
        return compareDecimal(parseDecimal(shown)!, text) === 0;
      }),
    );
  });

  it("marks a computed figure it rounds: ≈ when digits go, < when it would show zero", () => {
    expect(formatDecimal("392.60740387394073752136", { minDecimals: 2, maxDecimals: 2 })).toBe("≈ 392.61");
    expect(formatDecimal("392.6", { minDecimals: 2, maxDecimals: 2 })).toBe("392.60");
    expect(formatDecimal("0.000000000000003180", { minDecimals: 2, maxDecimals: 2 })).toBe("< 0.01");
  });
});
