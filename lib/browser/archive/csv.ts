import Papa from "papaparse";
import {
  ARCHIVE_CSV_COLUMNS,
  ARCHIVE_CSV_READ_COLUMNS,
  type ArchivedInvoiceInput,
  archivedInvoiceRequestSchema,
  EXPORT_INCOMPLETE,
  INVOICE_CSV_COLUMNS,
} from "@/lib/contract";
import { csvNeedsQuotes, neutraliseCsvCell, restoreCsvCell } from "@/lib/contract/csv-formula";
import { parseDecimal } from "@/lib/contract/money";
import { LosslessNumber } from "@/lib/contract/money-json";
import { type RowPricing, rowPricing } from "./pricing";

/*
 * The archive import reads a CSV with the invoice columns of lib/contract (INVOICE_CSV_COLUMNS, what the
 * export writes): the columns POST /archived accepts are sent, every other one is ignored. Each row is
 * checked with the contract before anything is sent. Of the two amounts only one is sent — the one the row
 * was priced in (its priced_in; without it, the EUR amount) — and the other is checked against the file's
 * payment_rate (./pricing.ts).
 */

export type RowProblem = { field: string; message: string };
export type CsvRow = {
  /** The row's line in the file (the header is line 1). */
  line: number;
  order_id: string;
  /** What is sent when the row is valid. */
  body: ArchivedInvoiceInput | null;
  problems: RowProblem[];
  /** Which amount is sent and what the other will be; null when the row has no amount it can send. */
  pricing: RowPricing | null;
  /** What the person should look at, though the row is sent: a derived amount that will differ from the file's. */
  warnings: RowProblem[];
};
export type ArchiveCsv = { rows: CsvRow[]; ignoredColumns: string[]; missingColumns: string[]; fileProblems: string[] };

/** At most this many rows a file: bigger histories are imported in several files. */
export const CSV_MAX_ROWS = 5_000;

/**
 * How the file writes a decimal: `.` (`1234.50`, as the export and most systems do) or `,` (`1234,50`, as
 * spreadsheets in much of Europe do). The person chooses; nothing is guessed, so `1,234` is never silently
 * read as 1.234 or as 1234.
 */
export type DecimalSeparator = "." | ",";

/** A plain decimal with the chosen separator: digits, at most one separator, no grouping or currency (a minus is the contract's to refuse). */
const PLAIN_NUMBER: Record<DecimalSeparator, RegExp> = { ".": /^-?\d+(\.\d+)?$/, ",": /^-?\d+(,\d+)?$/ };

type Cell = { value?: unknown; problem?: string };
type ReadColumn = (typeof ARCHIVE_CSV_COLUMNS)[number] | (typeof ARCHIVE_CSV_READ_COLUMNS)[number];
const NUMBER_COLUMNS = new Set<ReadColumn>(["fiat_amount", "crypto_amount", "allowed_error_percent", "payment_rate"]);

/**
 * A cell as POST /archived wants it: amounts and the percentage as JSON numbers with exactly the file's digits
 * (a LosslessNumber, never a float), absent when empty; a number written otherwise is a problem that says
 * what is expected, not a guess.
 */
function cell(column: ReadColumn, raw: string | undefined, separator: DecimalSeparator): Cell {
  // The export neutralises each part of a cell a spreadsheet would run as a formula with a ' (lib/contract/csv-formula.ts);
  // the API gets the text as it was.
  const value = restoreCsvCell(raw ?? "").trim();
  if (value === "") return {};
  if (!NUMBER_COLUMNS.has(column)) return { value };
  if (PLAIN_NUMBER[separator].test(value)) return { value: new LosslessNumber(value.replace(",", ".")) };
  const example = separator === "." ? "1234.50" : "1234,50";
  const other: DecimalSeparator = separator === "." ? "," : ".";
  const why = /[^\d.,-]/.test(value)
    ? "has a currency, a space or a letter"
    : PLAIN_NUMBER[other].test(value)
      ? `uses "${other}", but this file's decimal separator is set to "${separator}"`
      : "groups its digits (a thousands separator)";
  // The text goes on too, so the contract names this field alone rather than "give fiat_amount or crypto_amount".
  return {
    value,
    problem: `"${value}" ${why}: write the number plainly, like ${example}${PLAIN_NUMBER[other].test(value) ? `, or set the decimal separator to "${other}"` : ""}`,
  };
}

/** A number cell's decimal (its LosslessNumber's text, canonical with the file's trailing zeros); null when empty or unreadable. */
function decimalOf(value: unknown): string | null {
  return value instanceof LosslessNumber ? parseDecimal(value.value) : null;
}

function amountCell(cells: readonly (readonly [string, Cell])[], column: "fiat_amount" | "crypto_amount") {
  const found = cells.find(([c]) => c === column)?.[1] ?? {};
  return { value: found.problem ? null : decimalOf(found.value), written: found.value !== undefined };
}

export function readArchiveCsv(text: string, separator: DecimalSeparator = "."): ArchiveCsv {
  const parsed = Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ""), {
    header: true,
    skipEmptyLines: "greedy",
    transformHeader: (h) => h.trim().toLowerCase(),
  });
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
  const ignoredColumns = columns.filter((c) => !([...ARCHIVE_CSV_COLUMNS, ...ARCHIVE_CSV_READ_COLUMNS] as readonly string[]).includes(c));
  if (missingColumns.length) return { rows: [], ignoredColumns, missingColumns, fileProblems };
  if (parsed.data.length > CSV_MAX_ROWS) {
    return {
      rows: [],
      ignoredColumns,
      missingColumns,
      fileProblems: [
        ...fileProblems,
        `The file has ${parsed.data.length.toLocaleString("en")} rows; import at most ${CSV_MAX_ROWS.toLocaleString("en")} at a time.`,
      ],
    };
  }

  const firstLine = new Map<string, number>();
  const rows = parsed.data.map((record, index): CsvRow => {
    const line = index + 2;
    const cells = ARCHIVE_CSV_COLUMNS.map((c) => [c, cell(c, record[c], separator)] as const);
    const raw: Record<string, unknown> = Object.fromEntries(
      cells.filter(([, c]) => c.value !== undefined).map(([column, c]) => [column, c.value]),
    );
    const unreadable: RowProblem[] = cells.filter(([, c]) => c.problem).map(([field, c]) => ({ field, message: c.problem! }));
    const read = Object.fromEntries(ARCHIVE_CSV_READ_COLUMNS.map((c) => [c, cell(c, record[c], separator)])) as Record<
      (typeof ARCHIVE_CSV_READ_COLUMNS)[number],
      Cell
    >;
    const {
      pricing,
      problems: pricingProblems,
      warnings,
    } = rowPricing({
      fiat: amountCell(cells, "fiat_amount"),
      crypto: amountCell(cells, "crypto_amount"),
      pricedIn: String(read.priced_in.value ?? ""),
      rate: read.payment_rate.problem ? null : decimalOf(read.payment_rate.value),
      currency: String(raw.currency ?? "").toUpperCase(),
    });
    if (read.payment_rate.problem)
      warnings.unshift({
        field: "payment_rate",
        message: `${read.payment_rate.problem}; until then ${pricing?.derived ?? "the other amount"} is not checked before sending`,
      });
    // Only the amount the row was priced in is sent: the provider derives the other at the rate of created_at.
    // A row whose priced_in cannot be honoured is refused for that alone, not also for having both amounts.
    if (pricing) delete raw[pricing.derived];
    else if (pricingProblems.length) delete raw.crypto_amount;
    const orderId = String(raw.order_id ?? "");
    const result = archivedInvoiceRequestSchema.safeParse(raw);
    const problems: RowProblem[] = [
      ...unreadable,
      ...pricingProblems,
      ...(result.success
        ? []
        : result.error.issues.flatMap((issue) => {
            const fields = issue.code === "unrecognized_keys" ? issue.keys : [issue.path.map(String).join(".") || "row"];
            return fields.map((field) => ({ field, message: issue.message }));
          })
      ).filter((p) => !unreadable.some((u) => u.field === p.field)),
    ];
    const key = orderId.trim();
    if (key && firstLine.has(key))
      problems.push({ field: "order_id", message: `appears twice in this file (first on line ${firstLine.get(key)})` });
    else if (key) firstLine.set(key, line);
    return { line, order_id: orderId, body: result.success && problems.length === 0 ? result.data : null, problems, pricing, warnings };
  });
  return { rows, ignoredColumns, missingColumns, fileProblems };
}

export type ReportLine = { line: number | string; order_id: string; outcome: string; field: string; message: string };

/** The failures of an import as CSV: one line a problem, with the file's line so it can be fixed there. Its text comes from the file: neutralised. */
export function failureReport(lines: ReportLine[]): string {
  const text = (value: string) => neutraliseCsvCell(value);
  return Papa.unparse(
    {
      fields: ["line", "order_id", "outcome", "field", "message"],
      data: lines.map((l) => [
        typeof l.line === "number" ? l.line : text(l.line),
        text(l.order_id),
        text(l.outcome),
        text(l.field),
        text(l.message),
      ]),
    },
    { quotes: (value: unknown) => typeof value === "string" && csvNeedsQuotes(value) },
  );
}

/** A CSV with the invoice columns, for tests and as a template people can download. */
export function invoiceCsv(rows: Partial<Record<(typeof INVOICE_CSV_COLUMNS)[number], string | number>>[]): string {
  return Papa.unparse({ fields: [...INVOICE_CSV_COLUMNS], data: rows.map((r) => INVOICE_CSV_COLUMNS.map((c) => r[c] ?? "")) });
}
