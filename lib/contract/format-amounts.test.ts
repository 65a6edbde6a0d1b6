import { describe, expect, it } from "vitest";
import {
  formatCrypto,
  formatCryptoAligned,
  formatEur,
  formatEurComputed,
  formatFiat,
  formatRateEur,
  formatRateEurShort,
  MISSING,
} from "./format";

describe("amounts on screen, from their decimal strings", () => {
  it("show every digit the provider sent, grouped, with at least the currency's decimals", () => {
    expect(formatFiat("100000000000000.01", "EUR")).toBe("€100,000,000,000,000.01");
    expect(formatFiat("12.5", "EUR")).toBe("€12.50");
    expect(formatFiat("12.345", "EUR")).toBe("€12.345");
    expect(formatFiat("-3", "EUR")).toBe("-€3.00");
    expect(formatFiat("1234", "JPY")).toBe("JP¥1,234");
    expect(formatFiat("5", "XXQ")).toBe("XXQ\u00a05.00");
    expect(formatFiat(null, "EUR")).toBe(MISSING);
    expect(formatCrypto("0.000000000000000001")).toBe("0.000000000000000001");
    expect(formatCrypto("0.123456789012345678")).toBe("0.123456789012345678");
    expect(formatCrypto("12345.123456789012345678")).toBe("12,345.123456789012345678");
    expect(formatCrypto("25.17")).toBe("25.17");
    expect(formatRateEur("61234.5")).toBe("€61,234.50");
    expect(formatEur("0.000012345")).toBe("€0.000012345");
  });

  it("round only what the console computes, and say so", () => {
    expect(formatEurComputed("392.60740387394073752136")).toBe("≈ €392.61");
    expect(formatEurComputed("31.2")).toBe("€31.20");
    expect(formatEurComputed("0.000000000000003180")).toBe("< €0.01");
  });

  it("pad crypto amounts with figure spaces so the points line up", () => {
    expect(formatCryptoAligned("0.0783", 18)).toBe(`0.0783${"\u2007".repeat(14)}`);
    expect(formatCryptoAligned("0.000000000000000001", 18)).toBe("0.000000000000000001");
  });
});

describe("formatRateEurShort", () => {
  it("shows a rate to the cent from €1 up and to four significant figures below, rounding exactly", () => {
    expect(formatRateEurShort("60698.15574942")).toBe("€60,698.16");
    expect(formatRateEurShort("1")).toBe("€1.00");
    expect(formatRateEurShort("0.91983431")).toBe("€0.9198");
    expect(formatRateEurShort("0.0000123456789")).toBe("€0.00001235");
    expect(formatRateEurShort("0.99995")).toBe("€1.00");
    expect(formatRateEurShort("123456789012345.995")).toBe("€123,456,789,012,346.00");
  });
});
