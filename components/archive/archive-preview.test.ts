import { describe, expect, it } from "vitest";
import { readArchiveCsv } from "@/lib/browser/archive/csv";
import { checkCsvCurrencies, type PreviewInput, previewSentence } from "./archive-preview";

/* The archive form's preview sentence: a rate only with the moment it is of, and no number while unknown. */
const base: PreviewInput = {
  rates: { kind: "none" },
  currency: "ETH",
  currencyName: "Ether",
  amountIn: "crypto",
  amount: "0.5",
  timeZone: "Europe/Berlin",
};
/** The sentence with its no-break spaces as plain ones (they only keep "1 Mar 2025," and "15:03 CET" whole). */
const say = (patch: Partial<PreviewInput>) => previewSentence({ ...base, ...patch }).replaceAll("\u00a0", " ");

describe("previewSentence", () => {
  it("a back-dated invoice: the other amount at the rate of its minute, the moment named in the person's zone", () => {
    expect(say({ rates: { kind: "historical", rates: { ETH: "2310.42" }, at: "2025-03-01T14:03:00.000Z" } })).toBe(
      "≈ €1,155.21, derived at 1 ETH = €2,310.42 on 1 Mar 2025, 15:03 CET",
    );
    expect(
      say({ timeZone: "America/New_York", rates: { kind: "historical", rates: { ETH: "2310.42" }, at: "2025-03-01T14:03:00.000Z" } }),
    ).toContain("on 1 Mar 2025, 09:03 GMT-5");
    expect(
      say({
        amountIn: "fiat",
        amount: "1155.21",
        rates: { kind: "historical", rates: { ETH: "2310.42" }, at: "2025-03-01T14:03:00.000Z" },
      }),
    ).toBe("≈ 0.5 ETH, derived at 1 ETH = €2,310.42 on 1 Mar 2025, 15:03 CET");
  });

  it("keeps the day and the time with its zone each on one line", () => {
    const text = previewSentence({ ...base, rates: { kind: "historical", rates: { ETH: "2310.42" }, at: "2025-03-01T14:03:00.000Z" } });
    expect(text).toContain("on 1\u00a0Mar\u00a02025, 15:03\u00a0CET");
  });

  it("says no figure beside an amount the form refuses, whatever the rate", () => {
    const refused = say({ amountIn: "fiat", amount: "0.005", amountRefused: true, rates: { kind: "current", rates: { ETH: "3180" } } });
    expect(refused).toBe("No other amount is derived from a refused amount: correct the amount above first.");
    expect(refused).not.toContain("≈");
    // Not yet typed: the sentence says how to enter one, as before.
    expect(say({ amount: null, amountRefused: true, rates: { kind: "current", rates: { ETH: "3180" } } })).toContain("Enter it in EUR");
  });

  it("no creation date: the current rate, said so", () => {
    expect(say({ rates: { kind: "current", rates: { ETH: "3180" } } })).toBe("≈ €1,590.00 at 1 ETH = €3,180.00 (current rate)");
  });

  it("a provider that ignores the date: its current rate, and that it prices the past date at its own rate", () => {
    const text = say({ rates: { kind: "provider-current", rates: { ETH: "3180" } } });
    expect(text).toBe(
      "≈ €1,590.00 at 1 ETH = €3,180.00, the current rate: the provider gives no rate for a past date, and prices this invoice at its own rate when it records it.",
    );
  });

  it.each([
    [{ kind: "waiting", minute: "2025-03-01T14:03:00.000Z" }, "Looking up the rate of ETH on 1 Mar 2025, 15:03 CET…"],
    [{ kind: "invalid" }, "The rate is looked up once the creation date is valid"],
    [{ kind: "failed", minute: "2025-03-01T14:03:00.000Z", detail: "Too many requests." }, "could not be loaded (Too many requests)"],
    [{ kind: "none" }, "the provider derives the other amount"],
  ] as const)("%j shows no rate and no amount", (rates, words) => {
    const text = say({ rates });
    expect(text).toContain(words);
    expect(text).not.toMatch(/€|≈/);
  });

  it("names the rate and moment even before an amount is typed", () => {
    expect(say({ amount: null, rates: { kind: "historical", rates: { ETH: "2310.42" }, at: "2025-03-01T14:03:00.000Z" } })).toBe(
      "Enter it in EUR or in Ether; the other is derived at 1 ETH = €2,310.42 on 1 Mar 2025, 15:03 CET.",
    );
  });

  it("a currency the answer has no rate for says so", () => {
    expect(say({ currency: "SOL", rates: { kind: "historical", rates: { ETH: "2310.42" }, at: "2025-03-01T14:03:00.000Z" } })).toBe(
      "The provider gave no rate for SOL on 1 Mar 2025, 15:03 CET; it derives the other amount when it records the invoice.",
    );
  });
});

describe("checkCsvCurrencies", () => {
  const csv = readArchiveCsv("order_id,fiat_amount,fiat_currency,currency\nA-1,10.00,EUR,BTC\nA-2,12.00,EUR,XYZ\nA-3,,EUR,QQQ\n");

  it("makes a row whose currency the provider does not accept a problem before sending, naming what it accepts", () => {
    const checked = checkCsvCurrencies(csv, ["BTC", "ETH"]);
    expect(checked.rows.map((r) => r.body !== null)).toEqual([true, false, false]);
    expect(checked.rows[1].problems).toEqual([{ field: "currency", message: "unknown currency XYZ; the provider accepts BTC, ETH" }]);
    // A row already invalid for another reason is left as it was.
    expect(checked.rows[2].problems).toEqual(csv.rows[2].problems);
  });

  it("leaves the rows as they are while the list is not known", () => {
    expect(checkCsvCurrencies(csv, null)).toBe(csv);
    expect(checkCsvCurrencies(csv, [])).toBe(csv);
  });
});
