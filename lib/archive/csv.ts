import Papa from "papaparse";
import { csvNeedsQuotes, neutraliseCsvCell, restoreCsvCell } from "@/lib/csv-formula";
import { ARCHIVE_CSV_COLUMNS, archivedInvoiceRequestSchema, EXPORT_INCOMPLETE, INVOICE_CSV_COLUMNS, type ArchivedInvoiceInput } from "@/lib/invoicing";

/*
 * The archive import reads a CSV with the invoice columns of lib/invoicing (INVOICE_CSV_COLUMNS, what the
 * export writes): the columns POST /archived accepts are sent, every other one is ignored. Each row is
 * checked with the contract before anything is sent.
 */

export type RowProblem = { field: string; message: string };
export type CsvRow = {
  /** The row's line in the file (the header is line 1). */
  line: number;
  order_id: string;
  /** What is sent when the row is valid. */
  body: ArchivedInvoiceInput | null;
  problems: RowProblem[];
};
export type ArchiveCsv = { rows: CsvRow[]; ignoredColumns: string[]; missingColumns: string[]; fileProblems: string[] };

/** At most this many rows a file: bigger histories are imported in several files. */
export const CSV_MAX_ROWS = 5_000;

const NUMBER = /^[+-]?(\d+([.,]\d*)?|[.,]\d+)([eE][+-]?\d+)?$/;

/** A cell as POST /archived wants it: numbers for the amounts and the percentage, absent when empty. */
function cell(column: (typeof ARCHIVE_CSV_COLUMNS)[number], raw: string | undefined): unknown {
  // The export neutralises each part of a cell a spreadsheet would run as a formula with a ' (lib/csv-formula.ts);
  // the API gets the text as it was.
  const value = restoreCsvCell(raw ?? "").trim();
  if (value === "") return undefined;
  if (column === "fiat_amount" || column === "crypto_amount" || column === "allowed_error_percent") {
    return NUMBER.test(value) ? Number(value.replace(",", ".")) : value;
  }
  return value;
}

export function readArchiveCsv(text: string): ArchiveCsv {
  const parsed = Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ""), { header: true, skipEmptyLines: "greedy", transformHeader: (h) => h.trim().toLowerCase() });
  const columns = parsed.meta.fields ?? [];
  const fileProblems = parsed.errors.filter((e) => e.type !== "FieldMismatch").map((e) => `Line ${(e.row ?? 0) + 2}: ${e.message}`);
  // An export that failed midway ends with a row saying so: its rows are importable, but the file is not whole.
  const last = parsed.data.at(-1);
  const incomplete = last && columns[0] ? restoreCsvCell(String(last[columns[0]] ?? "")) : "";
  if (incomplete.startsWith(EXPORT_INCOMPLETE)) {
    parsed.data.pop();
    fileProblems.push(`This is an incomplete export: ${incomplete.slice(EXPORT_INCOMPLETE.length + 2)}`);
  }
  const missingColumns = ["order_id", "currency"].filter((c) => !columns.includes(c));
  if (!columns.includes("fiat_amount") && !columns.includes("crypto_amount")) missingColumns.push("fiat_amount or crypto_amount");
  const ignoredColumns = columns.filter((c) => !(ARCHIVE_CSV_COLUMNS as readonly string[]).includes(c));
  if (missingColumns.length) return { rows: [], ignoredColumns, missingColumns, fileProblems };
  if (parsed.data.length > CSV_MAX_ROWS) {
    return { rows: [], ignoredColumns, missingColumns, fileProblems: [...fileProblems, `The file has ${parsed.data.length.toLocaleString("en")} rows; import at most ${CSV_MAX_ROWS.toLocaleString("en")} at a time.`] };
  }

  const firstLine = new Map<string, number>();
  const rows = parsed.data.map((record, index): CsvRow => {
    const line = index + 2;
    const raw = Object.fromEntries(ARCHIVE_CSV_COLUMNS.map((c) => [c, cell(c, record[c])]).filter(([, v]) => v !== undefined));
    // An exported invoice has both amounts; the EUR amount is the ledger's, and the crypto side is derived.
    if (raw.fiat_amount !== undefined && raw.crypto_amount !== undefined) delete raw.crypto_amount;
    const orderId = String(raw.order_id ?? "");
    const result = archivedInvoiceRequestSchema.safeParse(raw);
    const problems: RowProblem[] = result.success
      ? []
      : result.error.issues.flatMap((issue) => {
          const fields = issue.code === "unrecognized_keys" ? issue.keys : [issue.path.map(String).join(".") || "row"];
          return fields.map((field) => ({ field, message: issue.message }));
        });
    const key = orderId.trim();
    if (key && firstLine.has(key)) problems.push({ field: "order_id", message: `appears twice in this file (first on line ${firstLine.get(key)})` });
    else if (key) firstLine.set(key, line);
    return { line, order_id: orderId, body: result.success && problems.length === 0 ? result.data : null, problems };
  });
  return { rows, ignoredColumns, missingColumns, fileProblems };
}

export type ReportLine = { line: number | string; order_id: string; outcome: string; field: string; message: string };

/** The failures of an import as CSV: one line a problem, with the file's line so it can be fixed there. Its text comes from the file: neutralised. */
export function failureReport(lines: ReportLine[]): string {
  const text = (value: string) => neutraliseCsvCell(value);
  return Papa.unparse(
    { fields: ["line", "order_id", "outcome", "field", "message"], data: lines.map((l) => [typeof l.line === "number" ? l.line : text(l.line), text(l.order_id), text(l.outcome), text(l.field), text(l.message)]) },
    { quotes: (value: unknown) => typeof value === "string" && csvNeedsQuotes(value) },
  );
}

/** A CSV with the invoice columns, for tests and as a template people can download. */
export function invoiceCsv(rows: Partial<Record<(typeof INVOICE_CSV_COLUMNS)[number], string | number>>[]): string {
  return Papa.unparse({ fields: [...INVOICE_CSV_COLUMNS], data: rows.map((r) => INVOICE_CSV_COLUMNS.map((c) => r[c] ?? "")) });
}
