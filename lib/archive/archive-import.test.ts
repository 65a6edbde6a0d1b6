import { describe, expect, it } from "vitest";
import { INVOICE_CSV_COLUMNS } from "@/lib/invoicing";
import { failureReport, invoiceCsv, readArchiveCsv } from "./csv";
import { isAlreadyRecorded } from "./duplicate";
import { sendRows, type SendOutcome } from "./send-rows";

describe("readArchiveCsv", () => {
  it("reads the export's columns, sends the accepted subset and ignores the rest", () => {
    const csv = invoiceCsv([
      { invoice_id: "invoice_x", order_id: "A-1", status: "completed", fiat_amount: "12.50", crypto_amount: "0.0002", currency: "btc", created_at: "2025-01-02", payment_address: "bc1q…", tx_hashes: "aa bb" },
      { order_id: "A-2", crypto_amount: "0.5", currency: "ETH", allowed_error_percent: "2", callback_url: "https://shop.example.com/h" },
    ]);
    const { rows, ignoredColumns, missingColumns } = readArchiveCsv(csv);
    expect(missingColumns).toEqual([]);
    expect(ignoredColumns).toEqual(INVOICE_CSV_COLUMNS.filter((c) => !["order_id", "order_name", "fiat_amount", "fiat_currency", "crypto_amount", "currency", "allowed_error_percent", "callback_url", "created_at"].includes(c)));
    // Both amounts exported: the EUR amount is sent, the crypto side derived by the provider.
    expect(rows[0]).toMatchObject({ line: 2, order_id: "A-1", problems: [], body: { order_id: "A-1", fiat_amount: "12.5", currency: "BTC", created_at: "2025-01-02T00:00:00.000Z" } });
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
    expect(dot[0].problems).toEqual([{ field: "crypto_amount", message: expect.stringContaining('"1,234" uses ",", but this file\'s decimal separator is set to "."') }]);
    expect(dot[0].problems[0].message).toContain('or set the decimal separator to ","');
    expect(dot[1].problems).toEqual([{ field: "fiat_amount", message: expect.stringContaining("a thousands separator") }]);
    expect(dot[2].problems).toEqual([{ field: "fiat_amount", message: expect.stringContaining("has a currency") }]);
    // Every digit kept: the amount is sent as the file wrote it, not through a float.
    expect(dot[3].body).toMatchObject({ crypto_amount: "0.123456789012345678" });

    const comma = readArchiveCsv(csv, ",").rows;
    expect(comma[0].body).toMatchObject({ crypto_amount: "1.234" });
    expect(comma[1].problems).toEqual([{ field: "fiat_amount", message: expect.stringContaining("a thousands separator") }]);
    expect(comma[3].problems).toEqual([{ field: "crypto_amount", message: expect.stringContaining('or set the decimal separator to "."') }]);
  });

  it("refuses a file without the columns it needs", () => {
    expect(readArchiveCsv("name,amount\nx,1\n").missingColumns).toEqual(["order_id", "currency", "fiat_amount or crypto_amount"]);
  });

  it("writes a failure report that a spreadsheet reads back", () => {
    const report = failureReport([{ line: 4, order_id: "B-3", outcome: "invalid", field: "fiat_amount", message: 'must be a number, "really"' }]);
    expect(report.split("\r\n")).toEqual(["line,order_id,outcome,field,message", '4,B-3,invalid,fiat_amount,"must be a number, ""really"""']);
  });

  it("neutralises what the imported file put in the report: an order id a spreadsheet would run", () => {
    const report = failureReport([{ line: 5, order_id: "x;=cmd|'/C calc'!A0", outcome: "invalid", field: "order_id", message: "@SUM(A1)" }]);
    expect(report.split("\r\n")[1]).toBe(`5,"x;'=cmd|'/C calc'!A0",invalid,order_id,"'@SUM(A1)"`);
  });

  it("restores each neutralised part of a cell, and keeps an amount's text as it is", () => {
    const csv = invoiceCsv([{ order_id: "N-1", order_name: "a;'=b,'+c\n'@d", currency: "BTC", fiat_amount: "-0.5" }]);
    const [row] = readArchiveCsv(csv).rows;
    expect(row.order_id).toBe("N-1");
    expect(row.problems.map((p) => p.field)).toEqual(["fiat_amount"]);
    const ok = readArchiveCsv(invoiceCsv([{ order_id: "N-2", order_name: "a;'=b,'+c\n'@d ''=e", currency: "BTC", fiat_amount: "0.5" }])).rows[0];
    expect(ok.body).toMatchObject({ order_name: "a;=b,+c\n@d ''=e", fiat_amount: "0.5" });
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
      a: [{ kind: "failed", status: 429, message: "slow down", errors: [], retryAfterSeconds: 3 }, { kind: "created", value: "a" }],
      b: [{ kind: "failed", status: 504, message: "no answer", errors: [], unknownOutcome: true }, { kind: "already_recorded", message: "dup" }],
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
    await sendRows(["a", "b", "c"], async (row) => {
      sent.push(row);
      if (row === "a") controller.abort();
      return { kind: "created", value: row };
    }, () => {}, { ...fakeClock(), signal: controller.signal });
    expect(sent).toEqual(["a"]);
  });
});
