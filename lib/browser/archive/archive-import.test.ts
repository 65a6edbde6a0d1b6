import { describe, expect, it } from "vitest";
import { INVOICE_CSV_COLUMNS } from "@/lib/contract";
import { failureReport, invoiceCsv, readArchiveCsv } from "./csv";
import { isAlreadyRecorded } from "./duplicate";
import { derivedDifference } from "./pricing";
import { type SendOutcome, sendRows } from "./send-rows";

describe("readArchiveCsv", () => {
  it("reads the export's columns, sends the accepted subset and ignores the rest", () => {
    const csv = invoiceCsv([
      {
        invoice_id: "invoice_x",
        order_id: "A-1",
        status: "completed",
        fiat_amount: "12.50",
        crypto_amount: "0.0002",
        currency: "btc",
        created_at: "2025-01-02",
        payment_address: "bc1q…",
        tx_hashes: "aa bb",
      },
      { order_id: "A-2", crypto_amount: "0.5", currency: "ETH", allowed_error_percent: "2", callback_url: "https://shop.example.com/h" },
    ]);
    const { rows, ignoredColumns, missingColumns } = readArchiveCsv(csv);
    expect(missingColumns).toEqual([]);
    expect(ignoredColumns).toEqual(
      INVOICE_CSV_COLUMNS.filter(
        (c) =>
          ![
            "order_id",
            "order_name",
            "fiat_amount",
            "fiat_currency",
            "crypto_amount",
            "currency",
            "allowed_error_percent",
            "callback_url",
            "created_at",
            "priced_in",
            "payment_rate",
          ].includes(c),
      ),
    );
    // Both amounts exported: the EUR amount is sent, the crypto side derived by the provider.
    expect(rows[0]).toMatchObject({
      line: 2,
      order_id: "A-1",
      problems: [],
      body: { order_id: "A-1", fiat_amount: "12.5", currency: "BTC", created_at: "2025-01-02T00:00:00.000Z" },
    });
    expect(rows[0].body).not.toHaveProperty("crypto_amount");
    expect(rows[1].body).toMatchObject({ crypto_amount: "0.5", allowed_error_percent: 2 });
  });

  it("names each bad row's line, field and rule; a repeated order id is a problem of its second row", () => {
    const csv = invoiceCsv([
      { order_id: "B-1", fiat_amount: "-1", currency: "BTC" },
      { order_id: "", fiat_amount: "1", currency: "BTC" },
      { order_id: "B-3", fiat_amount: "ten", currency: "BTC", created_at: "2999-01-01" },
      { order_id: "B-1", fiat_amount: "1", currency: "BTC" },
    ]);
    const { rows } = readArchiveCsv(csv);
    expect(rows.map((r) => [r.line, r.problems.map((p) => p.field)])).toEqual([
      [2, ["fiat_amount"]],
      [3, ["order_id"]],
      [4, ["fiat_amount", "created_at"]],
      [5, ["order_id"]],
    ]);
    expect(rows[3].problems[0].message).toContain("line 2");
    expect(rows.every((r) => r.body === null)).toBe(true);
  });

  it("reads a number with the decimal separator the person chose, and never guesses at one it was not told", () => {
    const csv = invoiceCsv([
      { order_id: "S-1", crypto_amount: "1,234", currency: "ETH" },
      { order_id: "S-2", fiat_amount: "1.000,50", currency: "BTC" },
      { order_id: "S-3", fiat_amount: "€12", currency: "BTC" },
      { order_id: "S-4", crypto_amount: "0.123456789012345678", currency: "ETH" },
    ]);
    const dot = readArchiveCsv(csv).rows;
    expect(dot[0].problems).toEqual([
      { field: "crypto_amount", message: expect.stringContaining('"1,234" uses ",", but this file\'s decimal separator is set to "."') },
    ]);
    expect(dot[0].problems[0].message).toContain('or set the decimal separator to ","');
    expect(dot[1].problems).toEqual([{ field: "fiat_amount", message: expect.stringContaining("a thousands separator") }]);
    expect(dot[2].problems).toEqual([{ field: "fiat_amount", message: expect.stringContaining("has a currency") }]);
    // Every digit kept: the amount is sent as the file wrote it, not through a float.
    expect(dot[3].body).toMatchObject({ crypto_amount: "0.123456789012345678" });

    const comma = readArchiveCsv(csv, ",").rows;
    expect(comma[0].body).toMatchObject({ crypto_amount: "1.234" });
    expect(comma[1].problems).toEqual([{ field: "fiat_amount", message: expect.stringContaining("a thousands separator") }]);
    expect(comma[3].problems).toEqual([
      { field: "crypto_amount", message: expect.stringContaining('or set the decimal separator to "."') },
    ]);
  });

  it("refuses a file without the columns it needs", () => {
    expect(readArchiveCsv("name,amount\nx,1\n").missingColumns).toEqual(["order_id", "currency", "fiat_amount or crypto_amount"]);
  });

  it("writes a failure report that a spreadsheet reads back", () => {
    const report = failureReport([
      { line: 4, order_id: "B-3", outcome: "invalid", field: "fiat_amount", message: 'must be a number, "really"' },
    ]);
    expect(report.split("\r\n")).toEqual([
      "line,order_id,outcome,field,message",
      '4,B-3,invalid,fiat_amount,"must be a number, ""really"""',
    ]);
  });

  it("neutralises what the imported file put in the report: an order id a spreadsheet would run", () => {
    const report = failureReport([
      { line: 5, order_id: "x;=cmd|'/C calc'!A0", outcome: "invalid", field: "order_id", message: "@SUM(A1)" },
    ]);
    expect(report.split("\r\n")[1]).toBe(`5,"x;'=cmd|'/C calc'!A0",invalid,order_id,"'@SUM(A1)"`);
  });

  it("restores each neutralised part of a cell, and keeps an amount's text as it is", () => {
    const csv = invoiceCsv([{ order_id: "N-1", order_name: "a;'=b,'+c\n'@d", currency: "BTC", fiat_amount: "-0.5" }]);
    const [row] = readArchiveCsv(csv).rows;
    expect(row.order_id).toBe("N-1");
    expect(row.problems.map((p) => p.field)).toEqual(["fiat_amount"]);
    const ok = readArchiveCsv(invoiceCsv([{ order_id: "N-2", order_name: "a;'=b,'+c\n'@d ''=e", currency: "BTC", fiat_amount: "0.5" }]))
      .rows[0];
    expect(ok.body).toMatchObject({ order_name: "a;=b,+c\n@d ''=e", fiat_amount: "0.5" });
  });
});

describe("readArchiveCsv: which amount is sent (priced_in)", () => {
  const row = (cells: Parameters<typeof invoiceCsv>[0][number]) =>
    readArchiveCsv(invoiceCsv([{ order_id: "P-1", currency: "ETH", created_at: "2025-03-01", ...cells }])).rows[0];

  it("sends the amount priced_in names, never the other", () => {
    const crypto = row({ priced_in: "crypto", fiat_amount: "1925.28", crypto_amount: "0.5" });
    expect(crypto.problems).toEqual([]);
    expect(crypto.body).toMatchObject({ crypto_amount: "0.5" });
    expect(crypto.body).not.toHaveProperty("fiat_amount");
    expect(crypto.pricing).toMatchObject({ sent: "crypto_amount", because: "priced_in", derived: "fiat_amount", fileValue: "1925.28" });

    const fiat = row({ priced_in: " Fiat ", fiat_amount: "1925.28", crypto_amount: "0.5" });
    expect(fiat.body).toMatchObject({ fiat_amount: "1925.28" });
    expect(fiat.body).not.toHaveProperty("crypto_amount");
    expect(fiat.pricing).toMatchObject({ sent: "fiat_amount", because: "priced_in", derived: "crypto_amount", fileValue: "0.5" });
  });

  it("without priced_in: both amounts send the EUR one (the ledger's) and say so; one amount sends that one", () => {
    expect(row({ fiat_amount: "10", crypto_amount: "0.5" }).pricing).toMatchObject({ sent: "fiat_amount", because: "default_fiat" });
    expect(row({ crypto_amount: "0.5" }).pricing).toMatchObject({
      sent: "crypto_amount",
      because: "only_amount",
      fileValue: null,
      expected: null,
    });
    expect(row({ fiat_amount: "10" }).body).toMatchObject({ fiat_amount: "10" });
  });

  it("refuses a priced_in it does not know, naming the cell and the values it takes", () => {
    const bad = row({ priced_in: "EUR", fiat_amount: "10", crypto_amount: "0.5" });
    expect(bad.body).toBeNull();
    expect(bad.problems).toEqual([
      {
        field: "priced_in",
        message: '"EUR" is not a priced_in value: write fiat (fiat_amount is sent) or crypto (crypto_amount is sent), or leave it empty',
      },
    ]);
  });

  it("refuses a priced_in naming an amount the row lacks, and says how to fix it", () => {
    const lacks = row({ priced_in: "crypto", fiat_amount: "10" });
    expect(lacks.body).toBeNull();
    expect(lacks.problems).toEqual([
      { field: "priced_in", message: 'is "crypto", but crypto_amount is empty: fill in crypto_amount, or set priced_in to fiat' },
    ]);
    // An amount written but unreadable is that cell's problem, not "empty".
    const unreadable = row({ priced_in: "crypto", fiat_amount: "10", crypto_amount: "0,5" });
    expect(unreadable.problems.map((p) => p.field)).toEqual(["crypto_amount"]);
  });

  it("shows the derived amount at the file's payment_rate: EUR to the cent, crypto to the file's own places", () => {
    // 0.5 ETH at €3,850.555 = 1925.2775 → €1,925.28 (half up), as the file says: no flag.
    const crypto = row({ priced_in: "crypto", crypto_amount: "0.5", fiat_amount: "1925.28", payment_rate: "3850.555" });
    expect(crypto.pricing).toMatchObject({ expected: "1925.28", rate: "3850.555" });
    expect(crypto.warnings).toEqual([]);
    // €1,000 at €3,000 = 0.333… ETH: the file writes 0.333333333333333333 (18 places), rounded half up there.
    const fiat = row({ priced_in: "fiat", fiat_amount: "1000", crypto_amount: "0.333333333333333333", payment_rate: "3000" });
    expect(fiat.pricing?.expected).toBe("0.333333333333333333");
    expect(fiat.warnings).toEqual([]);
    // The same file value with its trailing zeros: equal by value.
    expect(row({ priced_in: "fiat", fiat_amount: "1500", crypto_amount: "0.50000000", payment_rate: "3000" }).warnings).toEqual([]);
  });

  it("flags — but still sends — a row whose file value differs from the derivation, saying what the record will hold", () => {
    const edited = row({ priced_in: "fiat", fiat_amount: "1000", crypto_amount: "0.333333333333333334", payment_rate: "3000" });
    expect(edited.problems).toEqual([]);
    expect(edited.body).toMatchObject({ fiat_amount: "1000" });
    expect(edited.warnings).toEqual([
      {
        field: "crypto_amount",
        message:
          "crypto_amount will be derived as 0.333333333333333333 at 1 ETH = €3,000.00; the file says 0.333333333333333334. The row is recorded with 0.333333333333333333; if 0.333333333333333334 is the amount to keep, set priced_in to crypto so that it is sent",
      },
    ]);
    const fiat = row({ priced_in: "crypto", crypto_amount: "0.5", fiat_amount: "1925.27", payment_rate: "3850.555" });
    expect(fiat.warnings[0].message).toContain("fiat_amount will be derived as 1925.28 at 1 ETH = €3,850.555; the file says 1925.27");
    // Without priced_in, the EUR amount is sent and the crypto one checked the same way.
    expect(row({ fiat_amount: "1000", crypto_amount: "0.4", payment_rate: "3000" }).warnings.map((w) => w.field)).toEqual([
      "crypto_amount",
    ]);
    // Rounded to the file's own places (0.3 has one): a difference below them is left to the check after sending.
    expect(row({ fiat_amount: "1000", crypto_amount: "0.3", payment_rate: "3000" }).warnings).toEqual([]);
  });

  it("without payment_rate nothing is computed; an unreadable or zero rate is a warning, not a problem", () => {
    const none = row({ priced_in: "fiat", fiat_amount: "1000", crypto_amount: "0.3" });
    expect(none.pricing).toMatchObject({ rate: null, expected: null });
    expect(none.warnings).toEqual([]);
    const unreadable = row({ priced_in: "fiat", fiat_amount: "1000", crypto_amount: "0.3", payment_rate: "3.000,5" });
    expect(unreadable.body).not.toBeNull();
    expect(unreadable.warnings).toEqual([
      { field: "payment_rate", message: expect.stringContaining("crypto_amount is not checked before sending") },
    ]);
    const zero = row({ priced_in: "fiat", fiat_amount: "1000", crypto_amount: "0.3", payment_rate: "0" });
    expect(zero.body).not.toBeNull();
    expect(zero.warnings).toEqual([{ field: "payment_rate", message: expect.stringContaining("is 0") }]);
  });

  it("compares the provider's answer with the file after sending", () => {
    const { pricing } = row({ priced_in: "fiat", fiat_amount: "1000", crypto_amount: "0.3" });
    expect(derivedDifference(pricing!, { fiat_amount: "1000", crypto_amount: "0.30" })).toBeNull();
    expect(derivedDifference(pricing!, { fiat_amount: "1000", crypto_amount: "0.333333333333333333" })).toMatchObject({
      field: "crypto_amount",
      message: "recorded; crypto_amount derived as 0.333333333333333333 where the file says 0.3",
    });
    // Nothing in the file to compare with: no flag.
    expect(derivedDifference(row({ fiat_amount: "1000" }).pricing!, { fiat_amount: "1000", crypto_amount: "0.3" })).toBeNull();
  });
});

describe("isAlreadyRecorded", () => {
  it.each([
    [{ status: 422, errors: [{ pointer: "/order_id", code: "duplicate_order_id", detail: "is already recorded" }] }, true],
    [{ status: 422, errors: [{ pointer: "#/order_id", detail: "Order SO-1 has already been recorded" }] }, true],
    [{ status: 422, detail: "Order SO-1 has already been recorded" }, true],
    [{ status: 409, detail: "Conflict" }, true],
    [{ status: 422, errors: [{ pointer: "/order_id", detail: "must be at most 200 characters" }] }, false],
    [{ status: 422, errors: [{ pointer: "/currency", detail: "already deprecated" }] }, false],
    [{ status: 500, detail: "duplicate key" }, false],
  ])("%j → %s", (problem, expected) => {
    expect(isAlreadyRecorded(problem)).toBe(expected);
  });
});

describe("sendRows", () => {
  function fakeClock() {
    let t = 0;
    return { now: () => t, sleep: async (ms: number) => void (t += ms) };
  }

  it("sends one at a time, starting at most five a second, in order", async () => {
    const clock = fakeClock();
    const starts: number[] = [];
    const results: string[] = [];
    await sendRows(
      ["a", "b", "c", "d", "e", "f", "g"],
      async (row) => {
        starts.push(clock.now());
        return { kind: "created", value: row };
      },
      (row, outcome, done) => results.push(`${done}:${row}:${outcome.kind}`),
      clock,
    );
    expect(starts).toEqual([0, 200, 400, 600, 800, 1000, 1200]);
    expect(results).toEqual(["1:a:created", "2:b:created", "3:c:created", "4:d:created", "5:e:created", "6:f:created", "7:g:created"]);
  });

  it("waits as long as a 429 asks and tries again; an unknown outcome is tried once more", async () => {
    const clock = fakeClock();
    const calls: string[] = [];
    const answers: Record<string, (SendOutcome<string> & { retryAfterSeconds?: number; unknownOutcome?: boolean })[]> = {
      a: [
        { kind: "failed", status: 429, message: "slow down", errors: [], retryAfterSeconds: 3 },
        { kind: "created", value: "a" },
      ],
      b: [
        { kind: "failed", status: 504, message: "no answer", errors: [], unknownOutcome: true },
        { kind: "already_recorded", message: "dup" },
      ],
    };
    const outcomes: string[] = [];
    await sendRows(
      ["a", "b"],
      async (row) => {
        calls.push(`${row}@${clock.now()}`);
        return answers[row].shift()!;
      },
      (row, outcome) => outcomes.push(`${row}:${outcome.kind}`),
      clock,
    );
    expect(calls).toEqual(["a@0", "a@3000", "b@3200", "b@3400"]);
    expect(outcomes).toEqual(["a:created", "b:already_recorded"]);
  });

  it("stops when aborted", async () => {
    const controller = new AbortController();
    const sent: string[] = [];
    await sendRows(
      ["a", "b", "c"],
      async (row) => {
        sent.push(row);
        if (row === "a") controller.abort();
        return { kind: "created", value: row };
      },
      () => {},
      { ...fakeClock(), signal: controller.signal },
    );
    expect(sent).toEqual(["a"]);
  });
});
