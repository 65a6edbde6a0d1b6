import { describe, expect, it } from "vitest";
import { stringifyJson } from "@/lib/contract/money-json";
import { archiveFormSchema, toArchiveRequest } from "./archive-form-schema";
import { type ArchiveFormValues, EMPTY_ARCHIVE_FORM } from "./archive-form-values";

/*
 * The archive form reads its amount with the console's one reader of typed amounts: exact digits
 * go to the API as JSON numbers with those digits; a comma, grouping, sign or currency is an error on the
 * amount that names it and says what to write, and nothing is guessed.
 */
const values = (patch: Partial<ArchiveFormValues>): ArchiveFormValues => ({
  ...EMPTY_ARCHIVE_FORM,
  order_id: "LEGACY-1",
  currency: "ETH",
  ...patch,
});
const amountError = (patch: Partial<ArchiveFormValues>) => {
  const parsed = archiveFormSchema("Europe/Berlin").safeParse(values(patch));
  return parsed.success ? undefined : parsed.error.issues.find((i) => i.path[0] === "amount")?.message;
};

describe("the archive form's amount", () => {
  it("sends exactly the typed digits as a JSON number, never through a float", () => {
    const body = stringifyJson(toArchiveRequest(values({ amount_in: "crypto", amount: "0.123456789012345678" }), "UTC"));
    expect(body).toContain('"crypto_amount":0.123456789012345678');
    const fiat = stringifyJson(toArchiveRequest(values({ amount: "100000000000000.01" }), "UTC"));
    expect(fiat).toContain('"fiat_amount":100000000000000.01');
  });

  it("accepts 1 wei in ETH, and refuses it in EUR by the contract's cents rule", () => {
    expect(amountError({ amount_in: "crypto", amount: "0.000000000000000001" })).toBeUndefined();
    expect(amountError({ amount: "0.000000000000000001" })).toBe("Amount must have at most 2 decimal places (cents)");
  });

  it.each([
    [
      "1,234",
      "Amount in EUR: a comma is not read here. Write 1234.50: digits and a point, no thousands separators: if you mean 1 and a fraction, use a point (1.234); if you mean 1234, leave the comma out.",
    ],
    [
      "1.000,50",
      "Amount in EUR: a comma is not read here (neither as a thousands separator nor as a decimal comma). Write 1234.50: digits and a point, no thousands separators; use a point for decimals.",
    ],
    [
      "€5",
      "Amount in EUR: write the number alone, without a currency sign, a sign or letters. Write 1234.50: digits and a point, no thousands separators.",
    ],
    [
      "1 000",
      "Amount in EUR: spaces and apostrophes between digits are not read (a thousands separator). Write 1234.50: digits and a point, no thousands separators.",
    ],
    ["-1", "Amount in EUR: must be 0 or more. Write it without a minus."],
  ])("refuses %j with the reader's sentence, on the amount", (amount, message) => {
    expect(amountError({ amount })).toBe(message);
  });

  it("names the crypto box by its currency", () => {
    expect(amountError({ amount_in: "crypto", amount: "2,500" })).toMatch(/^Amount in ETH: a comma is not read here/);
  });

  it("an empty amount asks for one", () => {
    expect(amountError({ amount: "" })).toBe("Enter the amount");
  });
});

describe("the archive form's date and time", () => {
  const issues = (patch: Partial<ArchiveFormValues>) => {
    const parsed = archiveFormSchema("Europe/Berlin").safeParse(values({ amount: "10", ...patch }));
    return parsed.success ? [] : parsed.error.issues.map((i) => [i.path[0], i.message]);
  };

  it("refuses a day the calendar does not have, on the date, instead of recording the day after", () => {
    expect(issues({ date: "2026-02-30" })).toEqual([["date", "2026-02-30 is not a day of the calendar: check the month's last day"]]);
    expect(issues({ date: "2025-02-29", time: "10:00" })).toEqual([
      ["date", "2025-02-29 is not a day of the calendar: check the month's last day"],
    ]);
    expect(issues({ date: "2024-02-29", time: "10:00" })).toEqual([]);
  });

  it("refuses a time past the clock's on the time, in the form's words", () => {
    for (const time of ["25:00", "12:60", "24:00"]) {
      expect(issues({ date: "2026-01-15", time })).toEqual([["time", "Time must be HH:MM on a 24-hour clock, from 00:00 to 23:59"]]);
    }
    expect(issues({ date: "2026-01-15", time: "23:59" })).toEqual([]);
  });

  it("puts a time the clocks skip on the time", () => {
    expect(issues({ date: "2026-03-29", time: "02:30" })).toEqual([
      ["time", "2026-03-29 02:30 does not exist in Europe/Berlin: clocks go from 02:00 to 03:00"],
    ]);
  });
});
